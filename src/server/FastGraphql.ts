import { execute, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { ApiContext, CacheScope } from './ApiContext.js';

/** A GraphQL request as sent in a JSON body or a GET query string. */
export interface GraphqlParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** Reads the parameters of a plain GraphQL request; null for anything else (batches, extensions, odd types). */
export function plainParams(body: unknown): GraphqlParams | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (k !== 'query' && k !== 'variables' && k !== 'operationName') return null;
  if (typeof b.query !== 'string') return null;
  const v = b.variables;
  if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v))) return null;
  const o = b.operationName;
  if (o !== undefined && o !== null && typeof o !== 'string') return null;
  return { query: b.query, variables: v as Record<string, unknown> | null | undefined, operationName: o as string | null | undefined };
}

/** Whether an Accept header gets plain application/json from yoga (what the fast path answers). */
export function acceptsPlainJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === '') return true;
  const a = accept.toLowerCase();
  if (a.includes('graphql-response') || a.includes('event-stream') || a.includes('text/html')) return false;
  return a.includes('application/json') || a.includes('*/*');
}

/**
 * The common case of /graphql without the fetch-API adapter of yoga: a query
 * whose document parses and validates (kept per query text, least recently
 * used out) is executed directly with graphql-js, and a result without
 * errors is returned as the JSON body yoga would send. Everything else
 * (parse or validation failures, mutations, results with errors) returns
 * null, and the caller hands the request to yoga, which answers it with its
 * status codes and error masking.
 */
export class FastGraphql {
  private readonly docs = new Map<string, DocumentNode | null>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rules: readonly ValidationRule[],
    private readonly context: (scope: CacheScope) => ApiContext,
    private readonly maxDocs = 500,
  ) {}

  private document(query: string): DocumentNode | null {
    const hit = this.docs.get(query);
    if (hit !== undefined) return hit;
    let doc: DocumentNode | null = null;
    try {
      const d = parse(query);
      const op = getOperationAST(d);
      // only single-operation queries: named-operation selection and errors stay with yoga
      if (op && op.operation === 'query' && validate(this.schema, d, [...specifiedRules, ...this.rules]).length === 0) doc = d;
    } catch {
      doc = null;
    }
    if (this.docs.size >= this.maxDocs) this.docs.delete(this.docs.keys().next().value!);
    this.docs.set(query, doc);
    return doc;
  }

  /** The JSON body of a successful answer, or null when yoga must answer. */
  async run(params: GraphqlParams, scope: CacheScope): Promise<string | null> {
    if (params.query.length > 100_000) return null;
    const document = this.document(params.query);
    if (!document) return null;
    const result = await execute({
      schema: this.schema,
      document,
      variableValues: params.variables ?? undefined,
      operationName: params.operationName ?? undefined,
      contextValue: this.context(scope),
    });
    if (result.errors && result.errors.length > 0) return null;
    return JSON.stringify({ data: result.data });
  }
}
