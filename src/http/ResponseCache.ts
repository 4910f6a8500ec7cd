import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';

/** A finished GET answer, ready to send again. */
export interface CachedResponse {
  status: number;
  contentType: string;
  /** Text (sent as UTF-8) or bytes (a published file). */
  body: string | Buffer;
  etag: string;
  cacheControl: string;
  /** Headers of the answer's own (a published file's X-Source-SHA256). */
  headers?: Record<string, string>;
}

/** Cache-Control of answers pinned to an edition: editions never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of answers that depend on which edition is the latest: short-lived, served stale while a cache revalidates. */
export const SHORT = 'public, max-age=300, stale-while-revalidate=86400';
const PINNED_TAGS = ['crkb crkb-pinned', 'crkb,crkb-pinned'] as const;
const LATEST_TAGS = ['crkb crkb-latest', 'crkb,crkb-latest'] as const;
/** Cache-Control of errors. */
export const ERROR = 'public, max-age=60';
/** Cache-Control of answers that may differ on the next try (a timeout, a persisted query not yet registered). */
export const NO_STORE = 'no-store';

/** A weak ETag of a body. */
export function etagOf(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}

/** The content codings a cached answer is kept in, besides its plain bytes. */
export type Encoding = 'br' | 'gzip';

// As the compression middleware negotiates and compresses (brotli quality 4, preferred on a tie; nothing
// under 1 KB), so a cached answer reads the same as one compressed on the fly.
const ENCODINGS = ['br', 'gzip', 'deflate', 'identity'];
const PREFERRED = ['br', 'gzip'];
const MIN_COMPRESSED = 1024;
// A body this large (a long diff page: 130-800 KB) is gzipped at level 4, not the default 6: half the CPU (14 ms
// against 7 for an 800 KB page) for about 6 % more bytes; the decompressed bytes are the same.
const LARGE_BODY = 128 * 1024;
const compress: Record<Encoding, (b: Buffer) => Promise<Buffer>> = {
  br: (b) => promisify(brotliCompress)(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: b.length } }),
  gzip: (b) => promisify(gzip)(b, b.length >= LARGE_BODY ? { level: 4 } : {}),
};

/**
 * A cached answer: its body as bytes and, once a client has asked for them, its brotli and gzip
 * forms, made once (on the thread pool) and counted in the cache's size.
 */
export class StoredResponse {
  readonly status: number;
  readonly contentType: string;
  readonly etag: string;
  readonly cacheControl: string;
  readonly body: Buffer;
  readonly headers: Record<string, string> | undefined;
  private readonly encoded = new Map<Encoding, Buffer>();
  private readonly pending = new Map<Encoding, Promise<Buffer>>();

  constructor(
    r: CachedResponse,
    private readonly grew: () => void = () => {},
  ) {
    this.status = r.status;
    this.contentType = r.contentType;
    this.etag = r.etag;
    this.cacheControl = r.cacheControl;
    this.headers = r.headers;
    this.body = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body;
  }

  /** Bytes held: the body, its compressed forms and the headers. */
  get size(): number {
    let n = this.body.length + 2 * (this.etag.length + this.contentType.length + this.cacheControl.length) + 256;
    for (const [k, v] of Object.entries(this.headers ?? {})) n += 2 * (k.length + v.length);
    for (const b of this.encoded.values()) n += b.length;
    return n;
  }

  /** The body in a content coding, compressed the first time it is asked for. */
  async encode(encoding: Encoding): Promise<Buffer> {
    const done = this.encoded.get(encoding);
    if (done) return done;
    let p = this.pending.get(encoding);
    if (!p) {
      p = compress[encoding](this.body).then((b) => {
        this.encoded.set(encoding, b);
        this.pending.delete(encoding);
        this.grew();
        return b;
      });
      this.pending.set(encoding, p);
    }
    return p;
  }
}

/**
 * Finished GET answers keyed by URL, with their compressed forms, bounded in bytes; an answer over
 * a quarter of the budget is not kept.
 */
export class ResponseCache {
  private readonly lru: LRUCache<string, StoredResponse>;

  constructor(readonly maxBytes = 16 * 1024 * 1024) {
    this.lru = new LRUCache<string, StoredResponse>({ maxSize: maxBytes, maxEntrySize: maxBytes / 4, sizeCalculation: (v, k) => v.size + 2 * k.length });
  }

  /** The cached answer for a URL. */
  get(key: string): StoredResponse | undefined {
    return this.lru.get(key);
  }

  /** Keeps an answer (unless it is too big); returns it as stored, to send. */
  set(key: string, r: CachedResponse): StoredResponse {
    const stored: StoredResponse = new StoredResponse(r, () => {
      // counted again with its new compressed form (and dropped if that makes it too big); the LRU
      // counts a value again only when it is set anew, not when the same one is set again
      if (this.lru.peek(key) !== stored) return;
      this.lru.delete(key);
      this.lru.set(key, stored);
    });
    this.lru.set(key, stored);
    return stored;
  }

  /** Forgets every answer (the database was replaced). */
  clear(): void {
    this.lru.clear();
  }

  /** Bytes held. */
  get calculatedSize(): number {
    return this.lru.calculatedSize;
  }
}

/** A response cache holding at most `maxBytes` (default 16 MB). */
export function createResponseCache(maxBytes?: number): ResponseCache {
  return new ResponseCache(maxBytes);
}

/** The coding to send a cached body in, as the compression middleware would choose it; null for none. */
function encodingFor(req: Request, r: StoredResponse): Encoding | null {
  if (r.body.length < MIN_COMPRESSED || req.headers['accept-encoding'] === undefined) return null;
  // @types/negotiator leaves out the preferred list (ties between equally acceptable codings)
  const n = new Negotiator(req) as unknown as { encoding(available: string[], preferred: string[]): string | undefined };
  const e = n.encoding(ENCODINGS, PREFERRED);
  return e === 'br' || e === 'gzip' ? e : null;
}

/**
 * Sends a finished answer with its ETag and Cache-Control; 304 when the client already has it. A
 * stored answer goes out in its kept brotli or gzip form (with its own ETag and Content-Length)
 * when the client accepts one: it is compressed once, not on every request. Returns a promise only
 * when it has to wait for that form (the common answer is sent at once, without a promise to settle).
 */
export function sendCached(req: Request, res: Response, r: CachedResponse | StoredResponse): Promise<void> | undefined {
  res.status(r.status);
  res.set('Content-Type', r.contentType);
  // setHeader: express's res.set would coerce and inspect each value again
  res.setHeader('Cache-Control', r.cacheControl);
  // CDN purge keys (Fastly Surrogate-Key, Cloudflare Cache-Tag): a new edition changes only the answers tagged crkb-latest
  const tags = r.cacheControl === IMMUTABLE ? PINNED_TAGS : LATEST_TAGS;
  res.setHeader('Surrogate-Key', tags[0]);
  res.setHeader('Cache-Tag', tags[1]);
  if (r.headers) res.set(r.headers);
  // (the HTTP layer has usually said it already: parsing the header again would add nothing)
  if (res.getHeader('Vary') !== 'Accept-Encoding') res.vary('Accept-Encoding');
  const encoding = r instanceof StoredResponse ? encodingFor(req, r) : null;
  // a compressed form is another representation: its own tag ('W/"…-br"'), as If-None-Match sees it
  res.setHeader('ETag', encoding ? `${r.etag.slice(0, -1)}-${encoding}"` : r.etag);
  if (r.status === 200 && req.fresh) {
    res.status(304).end();
    return undefined;
  }
  if (encoding === null) {
    res.send(r.body);
    return undefined;
  }
  return sendEncoded(req, res, r as StoredResponse, encoding);
}

/** Sends a stored answer's body in a content coding (compressed the first time it is asked for). */
async function sendEncoded(req: Request, res: Response, r: StoredResponse, encoding: Encoding): Promise<void> {
  const bytes = await r.encode(encoding);
  res.set('Content-Encoding', encoding);
  res.set('Content-Length', String(bytes.length));
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
