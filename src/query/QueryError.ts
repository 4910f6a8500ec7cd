/** What went wrong with a query, for each edge to translate once (HTTP status, GraphQL code, CLI exit). */
export type QueryErrorCode = 'BAD_INPUT' | 'NOT_FOUND';

/** Extra facts of a query error: the argument at fault, numbers or terms the user may have meant. */
export interface QueryErrorDetails {
  argument?: string;
  suggestions?: string[];
  edition?: string;
}

/** A mistake in a query (BAD_INPUT) or something it names that does not exist (NOT_FOUND). */
export class QueryError extends Error {
  override name = 'QueryError';
  constructor(
    readonly code: QueryErrorCode,
    message: string,
    readonly details: QueryErrorDetails = {},
  ) {
    super(message);
  }
}
