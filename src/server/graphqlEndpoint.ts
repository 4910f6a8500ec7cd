import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { useAPQ } from '@graphql-yoga/plugin-apq';
import {
  GraphQLError,
  Kind,
  getOperationAST,
  getVariableValues,
  parse,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type Source,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { createYoga, processRegularResult, type GraphQLParams, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { schemaDir } from '../core/projectFiles.js';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import { createApiContext, type ApiContext, type CacheScope } from './ApiContext.js';
import { armorPlugins, costJudge, type ExecutorChoice, type QueryLimits } from './limits.js';
import { log } from './logger.js';
import { resolvers } from './resolvers/index.js';

/** The GraphQL SDL: every schema/*.graphql file, in name order. */
function loadTypeDefs(): string {
  const dir = schemaDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** Each SDL enum's values: the UPPER_CASE name GraphQL shows, the query layer's lowercase string inside. */
function enumValues(typeDefs: string): Record<string, Record<string, string>> {
  return Object.fromEntries(
    parse(typeDefs).definitions.flatMap((def) =>
      def.kind === Kind.ENUM_TYPE_DEFINITION
        ? [[def.name.value, Object.fromEntries((def.values ?? []).map((v) => [v.name.value, v.name.value.toLowerCase()]))]]
        : [],
    ),
  );
}

/** The executable schema of the API: the SDL with its resolvers. */
export function createApiSchema(): GraphQLSchema {
  const typeDefs = loadTypeDefs();
  return makeExecutableSchema({ typeDefs, resolvers: [resolvers, enumValues(typeDefs)] });
}

/** Error codes whose answers must not be kept: they may differ on the next try. */
const TRANSIENT = new Set(['TIMEOUT', 'BUSY', 'INTERNAL_SERVER_ERROR', 'PERSISTED_QUERY_NOT_FOUND']);

/** What one request produced besides its body: how cacheable its answer is. */
interface GraphqlOutcome {
  /** The `extensions.code` of each error of the answer. */
  codes: string[];
}

/** An answer of the endpoint: status, content type, body, and what the caches need to know. */
export interface GraphqlResponse {
  status: number;
  contentType: string;
  body: string;
  /** How cacheable the answer is: no errors (and which editions it read), or none that may change. */
  cache: 'ok' | 'error' | 'transient';
}

/** Options of the GraphQL endpoint. */
export interface GraphqlEndpointOptions {
  kb: () => KnowledgeBase;
  limits: QueryLimits;
  /** Per-request time limit of execution, ms (ApiContext.check). */
  timeLimitMs: number;
  /** Which executor runs an operation of a given cost (default: yoga's, in this thread). */
  executorFor?: ExecutorChoice;
}

/** A request to the endpoint as fetch's init: its method, the headers the pipeline reads, its body. */
export interface GraphqlInit {
  method: string;
  headers: { accept?: string; 'content-type'?: string };
  body?: Buffer | string;
}

/** Content-Type of a JSON POST that `direct` takes (yoga's JSON parser takes it too: it compares case-sensitively). */
const JSON_TYPE = /^application\/json(?:;\s*charset=(?:utf-8|UTF-8))?$/;
/** An Accept whose answer yoga sends as application/json (its last matching media type). */
const ANY_JSON = /^(?:\*\/\*|application\/json(?:\s*;\s*charset=utf-8)?)$/i;

/**
 * The context of one request, made before yoga sees it (a `context` option would be one more envelop hook
 * a request): the resolvers' ApiContext, and where the error codes of its answer are kept.
 */
interface RequestContext extends ApiContext {
  outcome: GraphqlOutcome;
}

/**
 * The request the hooks of `direct` see, without a body (yoga's check that a GET runs no mutation reads
 * its method; no hook of that path reads more): its headers are made only if something reads them.
 */
class BodilessRequest {
  readonly method = 'POST';
  constructor(
    readonly url: string,
    private readonly init: GraphqlInit,
    private readonly Headers: typeof globalThis.Headers,
  ) {}

  get headers(): Headers {
    return new this.Headers(this.init.headers);
  }
}

/** An LRU cache bounded in bytes, by an estimate of each entry's size from its key and value. */
function boundedCache<V extends object | string>(maxBytes: number, bytesOf: (key: string, value: V) => number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: maxBytes, maxEntrySize: maxBytes / 4, sizeCalculation: (v, k) => bytesOf(k, v) });
}

/**
 * The answer's size limit: the answer is serialized once, and one over maxAnswerBytes is replaced
 * by `{"data": null, "errors": [RESPONSE_TOO_LARGE]}` (an execution error: its status stays 200).
 */
function answerStringify(maxBytes: number): (r: unknown) => string {
  return (r) => {
    const s = JSON.stringify(r);
    if (s.length * 3 <= maxBytes || Buffer.byteLength(s) <= maxBytes) return s;
    const message = `the answer is ${Buffer.byteLength(s)} bytes, over the limit of ${maxBytes}; ask for fewer items or fields`;
    return JSON.stringify({ errors: [{ message, extensions: { code: 'RESPONSE_TOO_LARGE', bytes: Buffer.byteLength(s), maximum: maxBytes } }], data: null });
  };
}

/**
 * Validation results by parsed document (yoga's parser cache hands the same object for the same text): the
 * schema and the rules (graphql-js's and armor's) never change, so the document is the whole key. Yoga's own
 * validation cache keys each request by the names of every rule, joined again on every request. The
 * onValidate hooks of `plugins` (armor's limits: each adds its rule) run in this one hook, and only when a
 * document is validated: a hook is a step of envelop's promise helpers, which allocate on every request.
 * Returns the cache's plugin and `plugins` without their onValidate hooks.
 */
function useValidationCache(plugins: Plugin[]): { cache: Plugin; rest: Plugin[] } {
  const results = new WeakMap<DocumentNode, readonly Error[]>();
  const addRules: Array<NonNullable<Plugin['onValidate']>> = [];
  const rest: Plugin[] = [];
  for (const { onValidate, ...others } of plugins) {
    if (onValidate) addRules.push(onValidate);
    if (Object.keys(others).length > 0) rest.push(others);
  }
  const cache: Plugin = {
    onValidate(payload) {
      const document = payload.params.documentAST as DocumentNode;
      const known = results.get(document);
      if (known) return payload.setResult(known);
      // (armor's hooks return nothing to run after validation)
      for (const add of addRules) void add(payload);
      return ({ result }) => void results.set(document, result);
    },
  };
  return { cache, rest };
}

/** The offset in `source` of a 1-based line and column. */
export function offsetOf(source: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', at);
    if (nl < 0) break;
    at = nl + 1;
  }
  return at + column - 1;
}

/**
 * An error of a compiled query as graphql-js would have reported it: located by source and positions
 * (graphql-jit gives bare locations, which yoga's serializer drops), an error the resolver threw with a
 * path as it was thrown, and one the executor raised on a field (a null in a non-null field) with an
 * original error, so masking hides it as it hides graphql-js's.
 */
function asGraphqlJsError(e: GraphQLError, source: Source | undefined): GraphQLError {
  const original = e.originalError;
  if (original instanceof GraphQLError && Array.isArray(original.path)) return original;
  const at = source && e.locations?.length ? { source, positions: e.locations.map((l) => offsetOf(source.body, l.line, l.column)) } : {};
  if (!e.path) return new GraphQLError(e.message, { ...at, ...(original ? { originalError: original } : {}) });
  return new GraphQLError(e.message, { ...at, path: e.path, originalError: original ?? new Error(e.message) });
}

/** A compiled query's result in graphql-js's shape: its errors as graphql-js's, `errors` before `data`. */
function asGraphqlJsResult(r: ExecutionResult, source: Source | undefined): ExecutionResult {
  if (!r.errors?.length) return { data: r.data ?? null };
  const errors = r.errors.map((e) => asGraphqlJsError(e, source));
  return 'data' in r ? { errors, data: r.data ?? null } : { errors };
}

/**
 * Bytes of the documents whose operations are known (run once, or compiled), the most recently run: a
 * document is counted at four times its text (compiled code quotes its literals) and 8 KB more. A
 * count alone would let unique large queries keep hundreds of documents alive beyond the parser
 * cache's byte budget (the memory attack of hardening.slow.test).
 */
const COMPILED_BYTES = 4 * 1024 * 1024;

/** A compiled operation and the variables it declares. */
interface Compiled {
  query: CompiledQuery['query'];
  variables: OperationDefinitionNode['variableDefinitions'];
}

/**
 * Operations run as compiled JavaScript (graphql-jit) from their document's second request on: a
 * cached document's fields are resolved without the executor's per-request walk of the operation. A
 * document seen once runs on yoga's executor (compiling costs more than one run), and so does one
 * that does not compile (no such operation) and a request whose variables do not fit their types
 * (graphql-jit coerces some that graphql-js refuses): that executor reports them as it always has.
 */
function compiledExecution(): (args: ExecutionArgs) => Executor | undefined {
  const compiled = new LRUCache<DocumentNode, Map<string, Compiled | null | 'seen'>>({
    maxSize: COMPILED_BYTES,
    maxEntrySize: COMPILED_BYTES / 8,
    sizeCalculation: (_, document) => 4 * (document.loc?.source.body.length ?? 0) + 8192,
  });
  return (args) => {
    const { document, schema } = args;
    const opName = args.operationName ?? '';
    let byOp = compiled.get(document);
    if (!byOp) compiled.set(document, (byOp = new Map<string, Compiled | null | 'seen'>()));
    let c = byOp.get(opName);
    if (c === undefined) return void byOp.set(opName, 'seen');
    if (c === 'seen') {
      const q = compileQuery(schema, document, opName || undefined);
      c = isCompiledQuery(q) ? { query: q.query, variables: getOperationAST(document, opName || null)?.variableDefinitions } : null;
      byOp.set(opName, c);
    }
    if (c === null) return undefined;
    if (c.variables?.length && getVariableValues(schema, c.variables, args.variableValues ?? {}).errors) return undefined;
    const { query } = c;
    const source = document.loc?.source;
    return (a) => {
      const r = query(a.rootValue, a.contextValue, a.variableValues);
      return r instanceof Promise ? r.then((x) => asGraphqlJsResult(x, source)) : asGraphqlJsResult(r, source);
    };
  };
}

/** An executor of an operation: yoga's, a compiled query, or one the cost picked. */
type Executor = (args: ExecutionArgs) => unknown;

/**
 * Execution as one envelop hook (each hook of a request is a step of envelop's promise helpers, which
 * allocate on every step): the compiled query of a known document, the cost judged with the variables
 * (refused over the limit, or run by the executor it picks), and the answer limit on what it returns.
 */
function useExecution(schema: GraphQLSchema, limits: QueryLimits, choose?: ExecutorChoice): Plugin {
  const compiledFor = compiledExecution();
  const judge = costJudge(schema, limits, choose);
  const stringify = answerStringify(limits.maxAnswerBytes);
  const limited = (result: unknown): unknown => {
    if (result !== null && typeof result === 'object' && ('errors' in result || 'data' in result))
      (result as { stringify?: typeof stringify }).stringify = stringify;
    return result;
  };
  return {
    onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      // envelop types these as any
      const a = args as ExecutionArgs;
      const verdict = judge(a);
      if (verdict !== undefined && typeof verdict !== 'function') return setResultAndStopExecution(verdict);
      // compiled only for what runs here: not for an operation refused, nor one the cost sent to another executor
      const execute = verdict ?? compiledFor(a) ?? (executeFn as Executor);
      setExecuteFn(((x: ExecutionArgs) => {
        const r = execute(x);
        return typeof (r as PromiseLike<unknown> | null)?.then === 'function' ? (r as PromiseLike<unknown>).then(limited) : limited(r);
      }) as Parameters<typeof setExecuteFn>[0]);
    },
  };
}

/**
 * A GET (or form) request whose `variables` or `extensions` parameter is not JSON is a 400 naming
 * the parameter (yoga's parser would throw a SyntaxError: a masked 500).
 */
function useParamErrors(): Plugin {
  const rethrow = (e: unknown): never => {
    if (!(e instanceof SyntaxError)) throw e;
    throw new GraphQLError('the "variables" and "extensions" parameters must be JSON objects', {
      extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
    });
  };
  return {
    onRequestParse({ request, requestParser, setRequestParser }) {
      // the query string is parsed synchronously (a POST body's JSON errors are yoga's own 400)
      if (!requestParser || request.method !== 'GET') return;
      setRequestParser((r) => {
        try {
          return requestParser(r);
        } catch (e) {
          return rethrow(e);
        }
      });
    },
  };
}

/**
 * Automatic persisted queries (Apollo's protocol), consulted only by a request that carries a hash (its
 * hook is async). A `persistedQuery` that is not version 1 with a sha256Hash string is
 * PERSISTED_QUERY_NOT_SUPPORTED (400, as Apollo Server answers it): Apollo clients then stop sending
 * hashes and send their queries in full.
 */
function usePersistedQueries(maxBytes: number): Plugin {
  const apq = useAPQ({ store: boundedCache<string>(maxBytes, (k, v) => 2 * (k.length + v.length) + 128) });
  return {
    onParams(payload) {
      const ext = payload.params.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } | null } | undefined;
      if (ext?.persistedQuery === undefined) return;
      const pq = ext.persistedQuery;
      if (pq === null || typeof pq !== 'object' || pq.version !== 1 || typeof pq.sha256Hash !== 'string') {
        throw new GraphQLError('PersistedQueryNotSupported', {
          extensions: {
            code: 'PERSISTED_QUERY_NOT_SUPPORTED',
            reason: 'extensions.persistedQuery must be {"version": 1, "sha256Hash": "<sha-256 of the query, hex>"}',
            http: { status: 400 },
          },
        });
      }
      return apq.onParams!(payload);
    },
  };
}

/**
 * Every error gets `extensions.code` (graphql-js's own request errors, such as variables that do not
 * fit their types, have none: BAD_USER_INPUT), and the codes are kept for the answer caches. The
 * executor's request errors (variables, operation name) are 400 under application/graphql-response+json
 * only: under application/json the spec asks for 200.
 */
function useErrorCodes(): Plugin<object, RequestContext> {
  return {
    onExecutionResult({ result, context }) {
      if (!result || Array.isArray(result) || !('errors' in result) || !result.errors) return;
      for (const e of result.errors) {
        if (!(e instanceof GraphQLError)) continue;
        const ext = e.extensions as Record<string, unknown> & { http?: { status?: number; spec?: boolean } };
        if (typeof ext.code !== 'string') ext.code = 'BAD_USER_INPUT';
        if (ext.http?.status === 400 && !('data' in result)) ext.http.spec = true;
        context.outcome.codes.push(e.extensions.code as string);
      }
    },
  };
}

/**
 * The one GraphQL pipeline of the server, graphql-yoga with envelop plugins: graphql-armor's depth,
 * alias, token and directive limits; the cost of each operation with its variables
 * (graphql-query-complexity over FIELD_COST); automatic persisted queries (Apollo's protocol, a store
 * bounded in bytes); parsed documents cached, bounded in bytes; answers bounded in bytes. Client
 * errors keep their message and `extensions.code`; anything else is masked ("Unexpected error.") and
 * logged. Status codes follow the GraphQL-over-HTTP spec for both media types.
 */
export class GraphqlEndpoint {
  readonly yoga: YogaServerInstance<RequestContext, object>;
  /** Parsed documents by their text: a parsed document takes 30-100 times its text in memory (measured: GraphiQL's introspection query, 1.9 K characters, 60 KB; an 82-character query 8.5 KB). */
  readonly documentCache = boundedCache<DocumentNode>(16 * 1024 * 1024, (k) => 48 * k.length + 4096);

  constructor(private readonly opts: GraphqlEndpointOptions) {
    const schema = createApiSchema();
    const validation = useValidationCache(armorPlugins(opts.limits));
    this.yoga = createYoga<RequestContext>({
      schema,
      graphqlEndpoint: '/graphql',
      // served by the HTTP layer: GraphiQL from the project's bundle, CORS for every route
      graphiql: false,
      landingPage: false,
      cors: false,
      batching: false,
      // the HTTP layer reads the body within its limit (a 413); yoga's own check streams it again
      maxRequestBodySize: false,
      logging: {
        debug: () => undefined,
        info: () => undefined,
        warn: (...a: unknown[]) => log.warn({ details: a }, 'graphql'),
        error: (...a: unknown[]) => log.error({ details: a }, 'graphql error'),
      },
      maskedErrors: { errorMessage: 'Unexpected error.' },
      parserAndValidationCache: {
        documentCache: this.documentCache,
        errorCache: boundedCache<Error>(1024 * 1024, (k) => 2 * k.length + 1024),
        validationCache: false,
      },
      plugins: [
        useParamErrors(),
        validation.cache,
        usePersistedQueries(2 * 1024 * 1024),
        ...validation.rest,
        useExecution(schema, opts.limits, opts.executorFor),
        useErrorCodes(),
      ],
    });
  }

  /**
   * Runs one HTTP request (`url` a path under /graphql with its query string). `scope` learns
   * which editions the answer read.
   */
  async fetch(url: string, init: GraphqlInit, scope: CacheScope = { exact: 0, loose: 0 }): Promise<GraphqlResponse> {
    return (await this.direct(url, init, scope)) ?? this.viaFetch(url, init, scope);
  }

  /** Runs one HTTP request through yoga's whole fetch layer (what `fetch` does for any request `direct` does not take). */
  async viaFetch(url: string, init: GraphqlInit, scope: CacheScope = { exact: 0, loose: 0 }): Promise<GraphqlResponse> {
    const context = this.context(scope);
    const res = await this.yoga.fetch(`http://localhost${url}`, init as RequestInit, context);
    return this.answer(res, context.outcome);
  }

  /**
   * A plain JSON POST (Content-Type application/json, Accept absent, any or application/json, a JSON
   * object body without `extensions`) without yoga's fetch layer (the server adapter, its request
   * parsers and media-type negotiation, some 80 µs a request): its parameters go to the same yoga
   * instance's getResultForParams (every onParams hook, parse and validation with their caches, armor,
   * cost, masking, execution, onExecutionResult hooks) and the result to yoga's own application/json
   * processor, the one yoga picks for such a request. Null when the request is not one of those, or
   * when an onParams hook refuses its parameters (the full path then answers, with yoga's own error).
   */
  async direct(url: string, init: GraphqlInit, scope: CacheScope = { exact: 0, loose: 0 }): Promise<GraphqlResponse | null> {
    const accept = init.headers.accept;
    if (init.method !== 'POST' || typeof init.body !== 'string' || !JSON_TYPE.test(init.headers['content-type'] ?? '')) return null;
    if (accept !== undefined && !ANY_JSON.test(accept)) return null;
    let params: unknown;
    try {
      params = JSON.parse(init.body);
    } catch {
      return null;
    }
    if (params === null || typeof params !== 'object' || Array.isArray(params) || (params as { extensions?: unknown }).extensions !== undefined) return null;
    const context = this.context(scope);
    const { outcome } = context;
    const request = new BodilessRequest(`http://localhost${url}`, init, this.yoga.fetchAPI.Headers) as unknown as Request;
    let result;
    try {
      result = await this.yoga.getResultForParams({ params: params as GraphQLParams, request }, context);
    } catch {
      return null;
    }
    const r = result as ExecutionResult & { stringify?: (r: unknown) => string };
    // an answer without errors or extensions is what yoga's processor would make of it (200, the JSON as
    // the answer limit serializes it) without a Response to build and read back
    if (
      r.errors === undefined &&
      r.extensions === undefined &&
      outcome.codes.length === 0 &&
      typeof (r as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function'
    ) {
      return { status: 200, contentType: 'application/json; charset=utf-8', body: (r.stringify ?? JSON.stringify)(r), cache: 'ok' };
    }
    return this.answer(processRegularResult(r, this.yoga.fetchAPI, 'application/json'), outcome);
  }

  /** A request's context: the resolvers' (its time limit starts now), and its answer's error codes. */
  private context(scope: CacheScope): RequestContext {
    const context = createApiContext(this.opts.kb(), this.opts.timeLimitMs, scope) as RequestContext;
    context.outcome = { codes: [] };
    return context;
  }

  private async answer(res: Response, outcome: GraphqlOutcome): Promise<GraphqlResponse> {
    const body = await res.text();
    // errors raised before execution (a persisted query not found: 404) are not in outcome.codes
    const transient = outcome.codes.some((c) => TRANSIENT.has(c)) || (res.status !== 200 && res.status !== 400);
    const cache = transient ? 'transient' : outcome.codes.length > 0 || res.status !== 200 ? 'error' : 'ok';
    return { status: res.status, contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8', body, cache };
  }
}
