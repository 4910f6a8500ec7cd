import { GraphQLError } from 'graphql';

/** Error codes clients see in `extensions.code`. */
export type ApiErrorCode = 'NOT_FOUND' | 'BAD_USER_INPUT' | 'NOT_IMPLEMENTED' | 'TIMEOUT' | 'TOO_COMPLEX';

const STATUS: Record<ApiErrorCode, number> = {
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  NOT_IMPLEMENTED: 501,
  TIMEOUT: 503,
  TOO_COMPLEX: 400,
};

/** HTTP status for an error code. */
export function statusOf(code: string | undefined): number {
  return code !== undefined && code in STATUS ? STATUS[code as ApiErrorCode] : 500;
}

/** A client-facing error: a GraphQLError with extensions.code (and more extensions, e.g. suggestions). */
export function apiError(code: ApiErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  // NOT_FOUND stays a partial GraphQL result (HTTP 200); input mistakes make the whole response a 400.
  const http = code === 'BAD_USER_INPUT' || code === 'TOO_COMPLEX' ? { http: { status: STATUS[code] } } : {};
  return new GraphQLError(message, { extensions: { code, ...extra, ...http } });
}

/** The code of an error made by apiError, or undefined for anything else. */
export function codeOf(e: unknown): ApiErrorCode | undefined {
  if (e instanceof GraphQLError && typeof e.extensions.code === 'string') return e.extensions.code as ApiErrorCode;
  return undefined;
}
