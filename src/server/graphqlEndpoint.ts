import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeExecutableSchema } from '@graphql-tools/schema';
import {
  GraphQLError,
  execute,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { schemaDir } from '../core/projectFiles.js';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import { createApiContext, type CacheScope } from './ApiContext.js';
import { statusOf } from './errors.js';
import { limitsRule, type QueryLimits } from './limits.js';
import { resolvers } from './resolvers/index.js';

/** The GraphQL SDL: every schema/*.graphql file, in name order. */
export function loadTypeDefs(): string {
  const dir = schemaDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** The executable schema of the API: the SDL with its resolvers. */
export function createApiSchema(): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers });
}

/** A GraphQL request as sent in a JSON body or a GET query string. */
export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** What an endpoint answers: the HTTP status and the JSON body. */
export interface GraphqlResponse {
  status: number;
  body: string;
}

/** Longest query text read, and most tokens parsed (a cap on parser work). */
export const MAX_QUERY_CHARS = 20_000;
const MAX_TOKENS = 2_000;

/** Reads the parameters of a GraphQL request (a JSON body or query-string values), or says what is wrong. */
export function readGraphqlRequest(body: unknown): GraphqlRequest | string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the request must be a JSON object with a "query" string';
  const b = body as Record<string, unknown>;
  if (typeof b.query !== 'string' || b.query.trim() === '') return 'the "query" parameter must be a non-empty string';
  if (b.query.length > MAX_QUERY_CHARS) return `the query is longer than ${MAX_QUERY_CHARS} characters`;
  let v = b.variables;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return 'the "variables" parameter is not valid JSON';
    }
  }
  if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v))) return 'the "variables" parameter must be a JSON object';
  const o = b.operationName;
  if (o !== undefined && o !== null && typeof o !== 'string') return 'the "operationName" parameter must be a string';
  return { query: b.query, variables: v as Record<string, unknown> | null | undefined, operationName: o as string | null | undefined };
}

interface Prepared {
  document: DocumentNode;
  errors: readonly GraphQLError[];
}

const json = (status: number, errors: Array<{ message: string; extensions?: Record<string, unknown> }>): GraphqlResponse => ({
  status,
  body: JSON.stringify({ errors }),
});

/**
 * The one GraphQL pipeline of the server: parse (capped in tokens) and validate (with the depth,
 * alias and cost limits) once per distinct query text, kept in a cache bounded in bytes; execute
 * with graphql-js. Client errors keep their message and `extensions.code`; anything else is masked
 * and logged.
 */
export class GraphqlEndpoint {
  private readonly prepared: LRUCache<string, Prepared>;
  private readonly rules;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly kb: () => KnowledgeBase,
    private readonly limits: QueryLimits,
    private readonly timeLimitMs: number,
  ) {
    this.rules = [...specifiedRules, limitsRule(limits)];
    this.prepared = new LRUCache<string, Prepared>({ maxSize: 4 * 1024 * 1024, sizeCalculation: (_v, k) => 4 * k.length + 256 });
  }

  private prepare(query: string): Prepared {
    const hit = this.prepared.get(query);
    if (hit) return hit;
    let p: Prepared;
    try {
      const document = parse(query, { maxTokens: MAX_TOKENS, noLocation: false });
      p = { document, errors: validate(this.schema, document, this.rules) };
    } catch (e) {
      if (!(e instanceof GraphQLError)) throw e;
      p = { document: { kind: 'Document', definitions: [] } as unknown as DocumentNode, errors: [e] };
    }
    this.prepared.set(query, p);
    return p;
  }

  /** Runs one request; `method` GET may only run queries. `scope` learns how cacheable the answer is. */
  async run(req: GraphqlRequest, method: 'GET' | 'POST', scope?: CacheScope): Promise<GraphqlResponse> {
    const p = this.prepare(req.query);
    if (p.errors.length > 0) {
      return json(
        400,
        p.errors.map((e) => ({
          message: e.message,
          extensions: { code: typeof e.extensions.code === 'string' ? e.extensions.code : 'GRAPHQL_VALIDATION_FAILED', ...e.extensions },
        })),
      );
    }
    const op = getOperationAST(p.document, req.operationName ?? undefined);
    if (!op) return json(400, [{ message: req.operationName ? `no operation named "${String(req.operationName).slice(0, 40)}"` : 'give operationName: the document has several operations', extensions: { code: 'BAD_USER_INPUT' } }]);
    if (op.operation !== 'query') return json(method === 'GET' ? 405 : 400, [{ message: `${op.operation} operations are not supported`, extensions: { code: 'BAD_USER_INPUT' } }]);
    const result = (await execute({
      schema: this.schema,
      document: p.document,
      variableValues: req.variables ?? undefined,
      operationName: req.operationName ?? undefined,
      contextValue: createApiContext(this.kb(), this.timeLimitMs, scope),
    })) as ExecutionResult;
    const errors = result.errors?.map((e) => {
      const code = typeof e.extensions.code === 'string' ? e.extensions.code : undefined;
      if (code === undefined && e.originalError && !(e.originalError instanceof GraphQLError)) {
        console.error('crkb graphql error:', e.originalError);
        return { message: 'Unexpected error.', locations: e.locations, path: e.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
      }
      // no code: graphql-js's own request errors (variables that do not fit their types)
      return { message: e.message, locations: e.locations, path: e.path, extensions: { ...e.extensions, code: code ?? 'BAD_USER_INPUT' } };
    });
    const codes = new Set(errors?.map((e) => e.extensions.code));
    // input mistakes make the whole response a 400; a rule not found stays a partial result (200)
    const status = codes.has('BAD_USER_INPUT') || codes.has('TOO_COMPLEX') ? 400 : codes.has('TIMEOUT') ? statusOf('TIMEOUT') : codes.has('INTERNAL_SERVER_ERROR') && !result.data ? 500 : 200;
    return { status, body: JSON.stringify(errors ? { errors, data: result.data ?? null } : { data: result.data }) };
  }
}
