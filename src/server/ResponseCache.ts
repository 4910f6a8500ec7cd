import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';

/** A finished GET answer, ready to send again. */
export interface CachedResponse {
  status: number;
  contentType: string;
  body: string;
  etag: string;
  cacheControl: string;
}

/** Cache-Control of answers pinned to an edition: editions never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of answers that depend on which edition is the latest. */
export const SHORT = 'public, max-age=300';
/** Cache-Control of errors. */
export const ERROR = 'public, max-age=60';
/** Cache-Control of answers that may differ on the next try (a timeout, a persisted query not yet registered). */
export const NO_STORE = 'no-store';

/** A weak ETag of a body. */
export function etagOf(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}

/** Finished GET answers keyed by URL, bounded in bytes (key and body, two bytes a character). */
export type ResponseCache = LRUCache<string, CachedResponse>;

/** A response cache holding at most `maxBytes`; an answer over an eighth of it is not kept. */
export function createResponseCache(maxBytes = 8 * 1024 * 1024): ResponseCache {
  return new LRUCache<string, CachedResponse>({
    maxSize: maxBytes,
    maxEntrySize: maxBytes / 8,
    sizeCalculation: (v, k) => 2 * (k.length + v.body.length + v.etag.length + v.contentType.length) + 128,
  });
}

/** Sends a finished answer with its ETag and Cache-Control; 304 when the client already has it. */
export function sendCached(req: Request, res: Response, r: CachedResponse): void {
  res.status(r.status);
  res.set('Content-Type', r.contentType);
  res.set('Cache-Control', r.cacheControl);
  res.set('ETag', r.etag);
  if (r.status === 200 && req.fresh) {
    res.status(304).end();
    return;
  }
  res.send(r.body);
}
