import type { KnownEdition } from '../query/knownEditions.js';
import type { QueryLimits } from './limits.js';

/** The options of buildServer a heavy worker thread takes from the serving thread. */
export interface WorkerServerOptions {
  limits?: Partial<QueryLimits>;
  /** Per-request time limit of GraphQL execution, ms. */
  timeLimitMs?: number;
  /** Request body limit, bytes. */
  bodyLimit?: number;
  /** Discord application public key (hex): serves /discord/interactions (default $CRKB_DISCORD_PUBLIC_KEY). */
  discordPublicKey?: string;
  /** Editions the sources manifest knows: pages and answers say when the database lacks newer ones (default none). */
  knownEditions?: readonly KnownEdition[];
  /** Bytes of diffs the knowledge base keeps (default: buildServer's SERVER_DIFF_CACHE_BYTES; a command's default is 8 MB). */
  diffCacheBytes?: number;
  /** The thread that answers diff pages diffs every neighbour transition between requests once started (KnowledgeBase.diffsInBackground; default false: a server's, not a test's). */
  diffsInBackground?: boolean;
}

/** What a heavy worker thread opens, and the server options it answers with (those a worker can take). */
export interface WorkerSetup {
  /** The database file the serving thread verified, by the descriptor it holds (threads share descriptors). */
  dbHeld?: { fd: number; size: number; mtimeMs: number; sha256: string };
  /** A serialized database, for servers built over an open (in-memory) database. */
  dbImage?: Uint8Array;
  server: WorkerServerOptions;
}

/** An HTTP request forwarded whole to a worker thread, or a GraphQL operation to execute there. */
export interface HeavyTask {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** A GraphQL operation (then method, url and headers only name it in logs). */
  graphql?: { query: string; variables?: Record<string, unknown>; operationName?: string };
  /** The public URL links in the answer start with. */
  publicUrl: string;
}

/** The answer of a forwarded request; of a GraphQL operation, the JSON body and which editions it read. */
export interface HeavyResult {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  scope?: { exact: number; loose: number };
}
