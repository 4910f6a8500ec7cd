import { GraphQLError } from 'graphql';
import { QueryError } from '../query/QueryError.js';

/** Error codes clients see in `extensions.code` (GraphQL) and `error.code` (REST). */
export type ApiErrorCode = 'NOT_FOUND' | 'BAD_USER_INPUT' | 'TIMEOUT' | 'TOO_COMPLEX';

const STATUS: Record<ApiErrorCode, number> = {
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  TIMEOUT: 503,
  TOO_COMPLEX: 400,
};

/** HTTP status for an error code (500 for anything else). */
export function statusOf(code: string | undefined): number {
  return code !== undefined && Object.hasOwn(STATUS, code) ? STATUS[code as ApiErrorCode] : 500;
}

/** A client-facing error: a GraphQLError with extensions.code (and more extensions, e.g. suggestions). */
export function apiError(code: ApiErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra } });
}

/** The query layer's error as the API's: BAD_INPUT is BAD_USER_INPUT, NOT_FOUND stays; anything else is rethrown. */
export function toApiError(e: unknown): GraphQLError {
  if (e instanceof GraphQLError) return e;
  if (e instanceof QueryError) {
    const d = e.details;
    return apiError(e.code === 'BAD_INPUT' ? 'BAD_USER_INPUT' : 'NOT_FOUND', e.message, {
      ...(d.argument !== undefined ? { argument: d.argument } : {}),
      ...(d.suggestions !== undefined ? { suggestions: d.suggestions } : {}),
      ...(d.edition !== undefined ? { edition: d.edition } : {}),
    });
  }
  throw e;
}

/** The code of a client-facing error (a QueryError or an apiError), or undefined for anything else. */
export function codeOf(e: unknown): ApiErrorCode | undefined {
  if (e instanceof QueryError) return e.code === 'BAD_INPUT' ? 'BAD_USER_INPUT' : 'NOT_FOUND';
  if (e instanceof GraphQLError && typeof e.extensions.code === 'string') return e.extensions.code as ApiErrorCode;
  return undefined;
}
