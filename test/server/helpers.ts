import { after, before } from 'node:test';
import { buildServer, type BuildServerOptions, type BuiltServer } from '../../src/server/buildServer.js';
import { listen, type Listening } from '../../src/server/listen.js';
import type { Db } from '../../src/db/openDb.js';
import { fixtureDb } from './fixtures.js';

/** A server over a fixture database (the one given, closed with it, or a fresh one, with derived data if asked), on a loopback port. */
export async function fixtureServer(opts: Partial<BuildServerOptions> = {}, dbOrDerived: Db | boolean = false) {
  const db = typeof dbOrDerived === 'boolean' ? fixtureDb(':memory:', undefined, { derived: dbOrDerived }) : dbOrDerived;
  const built = await buildServer({ db, ...opts });
  const l = await listen(built.app, 0);
  return {
    ...built,
    url: l.url,
    async close() {
      await l.close();
      await built.close();
      db.close();
    },
  };
}

// Test results are read field by field; a loose type keeps assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type J = any;

/** The media type of the GraphQL-over-HTTP spec, whose status codes tell request errors (4xx) from answers. */
export const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** Runs a GraphQL query in-process through the server's one GraphQL pipeline (accepting application/json unless told). */
export async function gql(
  server: { graphql: (query: string, variables?: Record<string, unknown>, opts?: { accept?: string }) => Promise<{ status: number; body: string }> },
  query: string,
  variables: Record<string, unknown> = {},
  accept?: string,
) {
  const res = await server.graphql(query, variables, accept ? { accept } : {});
  return { status: res.status, text: res.body, json: JSON.parse(res.body) as { data?: J; errors?: J[] } };
}

/** The server a test file shares: over a database file, on a loopback port, started before the file's tests and closed after them. */
export function sharedServer(dbFile: () => string, opts: Partial<BuildServerOptions> = {}): { built: BuiltServer; l: Listening } {
  const s = {} as { built: BuiltServer; l: Listening };
  before(async () => {
    s.built = await buildServer({ dbFile: dbFile(), ...opts });
    s.l = await listen(s.built.app, 0);
  });
  after(async () => {
    await s.l.close();
    await s.built.close();
  });
  return s;
}
