import type { Request, Response } from 'express';
import { GraphQLError } from 'graphql';
import { QueryError } from '../query/QueryError.js';
import { sendError, type RestProblem } from '../query/sendError.js';

/** Error codes clients see in `extensions.code` (GraphQL) and `error.code` (REST). */
export type ApiErrorCode = 'NOT_FOUND' | 'BAD_USER_INPUT' | 'TIMEOUT' | 'TOO_COMPLEX';

/** A GraphQL error with extensions.code (and more extensions, e.g. suggestions). */
export function apiError(code: ApiErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra } });
}

/** The query layer's error as GraphQL's: BAD_INPUT is BAD_USER_INPUT, NOT_FOUND stays; anything else is rethrown. */
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

/** Paths of the REST surface (/v1, feeds, the download, Discord's endpoint, the OpenAPI document). */
const REST_PATH = /^\/(?:v1|feed|download|discord|openapi\.json)(?:[/.]|$)/;

const PAGE_TITLE = new Map([
  ['BUSY', 'Busy'],
  ['TIMEOUT', 'Too long'],
  ['INTERNAL_SERVER_ERROR', 'Error'],
]);

/**
 * Answers an error no router answered (the fallbacks, a refused costly request) in the one shape of
 * the surface its path belongs to: GraphQL's `{"errors": […]}`, the REST shape (sendError), a page for people.
 */
export function sendSurfaceError(req: Request, res: Response, p: RestProblem, page: (title: string, message: string) => string, headers = {}): void {
  if (REST_PATH.test(req.path)) return sendError(res, p, 'json', headers);
  res.status(p.status).set(headers);
  if (req.path === '/graphql') res.json({ errors: [{ message: p.message, extensions: { code: p.code } }] });
  else res.type('html').send(page(PAGE_TITLE.get(p.code) ?? (p.status === 404 ? 'Not found' : 'Bad request'), p.message));
}
