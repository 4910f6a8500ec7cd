import { createHash } from 'node:crypto';

/** A finished GET answer, ready to send again. */
export interface CachedResponse {
  status: number;
  contentType: string;
  body: string;
  etag: string;
  cacheControl: string;
}

/** Cache-Control of answers pinned to an edition date: editions never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Cache-Control of answers that depend on which edition is the latest. */
export const SHORT = 'public, max-age=300';
/** Cache-Control of errors. */
export const ERROR = 'public, max-age=60';

/** A weak ETag of a body. */
export function etagOf(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}

// Bytes an answer holds, counted as two per character (strings with any non-Latin-1 character are two-byte in V8).
function sizeOf(v: CachedResponse): number {
  return 2 * (v.body.length + v.etag.length + v.contentType.length) + 64;
}

/**
 * An LRU of finished GET answers keyed by URL. The database is opened
 * read-only, so an answer stays right as long as the server runs.
 */
export class ResponseCache {
  private readonly map = new Map<string, CachedResponse>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 2000,
    private readonly maxBytes = 8 * 1024 * 1024,
  ) {}

  /** The cached answer for a key, refreshed as most recently used. */
  get(key: string): CachedResponse | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** Stores an answer, evicting the least recently used past the limits. */
  set(key: string, v: CachedResponse): void {
    const old = this.map.get(key);
    if (old) {
      this.bytes -= sizeOf(old);
      this.map.delete(key);
    }
    if (sizeOf(v) > this.maxBytes / 8) return;
    this.map.set(key, v);
    this.bytes += sizeOf(v);
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const first = this.map.keys().next();
      if (first.done) break;
      this.bytes -= sizeOf(this.map.get(first.value)!);
      this.map.delete(first.value);
    }
  }

  /** Number of cached answers. */
  get size(): number {
    return this.map.size;
  }
}
