import type { Response } from 'express';
import { errorText } from './chatText.js';
import type { Format } from './edgeArgs.js';
import { QueryError } from './QueryError.js';

/** A REST error: status, code, message, and the argument at fault and the nearest candidates when known. */
export interface RestProblem {
  status: number;
  code: string;
  message: string;
  argument?: string | undefined;
  suggestions?: string[] | undefined;
}

/** Content type of a REST answer in each format. */
export const CONTENT_TYPE: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
};

/** The one REST error shape: `{"error": {"code", "message", "argument"?, "suggestions"?}}`, or a text/Markdown line (errorText). */
export function errorResponse(e: QueryError | RestProblem, format: Format = 'json'): { status: number; contentType: string; body: string } {
  // a query error: BAD_INPUT is a 400 BAD_USER_INPUT, NOT_FOUND a 404
  const bad = e instanceof QueryError && e.code === 'BAD_INPUT';
  const p = e instanceof QueryError ? { ...e.details, status: bad ? 400 : 404, code: bad ? 'BAD_USER_INPUT' : 'NOT_FOUND', message: e.message } : e;
  const { code, message, argument, suggestions } = p;
  // (JSON leaves out what is undefined)
  const body =
    format === 'json'
      ? JSON.stringify({ error: { code, message, argument, suggestions: suggestions?.length ? suggestions : undefined } })
      : errorText(p, format);
  return { status: p.status, contentType: CONTENT_TYPE[format], body };
}

/** Sends a REST error in its one shape (see errorResponse), with extra headers (Retry-After, Cache-Control). */
export function sendError(res: Response, e: QueryError | RestProblem, format: Format = 'json', headers: Record<string, string> = {}): void {
  const r = errorResponse(e, format);
  res.status(r.status).set(headers).type(r.contentType).send(r.body);
}
