import { createHash } from 'node:crypto';
import { createReadStream, fstatSync } from 'node:fs';
import { pipeline } from 'node:stream';
import { Router, type Request, type Response } from 'express';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { sendError } from '../../query/sendError.js';
import { SHORT } from '../../http/ResponseCache.js';

/** Options of the bulk download. */
export interface DownloadRouteOptions {
  /** The query layer served (its database is what is downloaded). */
  kb: () => KnowledgeBase;
  /** Downloads sent at once by this process (default 16); more are refused with 503 and Retry-After. */
  maxConcurrent?: number | undefined;
}

const HEADERS = {
  'Content-Type': 'application/vnd.sqlite3',
  'Content-Disposition': 'attachment; filename="crkb.db"',
  'Cache-Control': SHORT,
  'Accept-Ranges': 'bytes',
};

/** The bytes a download sends: the verified file (by its descriptor) or an in-memory database's image. */
interface Image {
  etag: string;
  size: number;
  lastModified: Date | null;
  /** Still the bytes the ETag names (a file rewritten in place since it was verified is not). */
  intact(): boolean;
  send(res: Response, start: number, end: number): void;
}

function unavailable(res: Response, seconds: number, message: string): void {
  sendError(res, { status: 503, code: 'UNAVAILABLE', message }, 'json', { 'Retry-After': String(seconds) });
}

/**
 * GET /download/crkb.db: the database the server loaded and verified, from the descriptor it holds
 * (the path may have been replaced or deleted since), with its sha256 as a strong ETag, 304 and
 * single range requests; an in-memory database (tests, tools) is serialized once.
 */
export function downloadRoutes(opts: DownloadRouteOptions): Router {
  const router = Router();
  const max = opts.maxConcurrent ?? 16;
  const images = new WeakMap<KnowledgeBase, Image>();
  let sending = 0;
  const imageOf = (kb: KnowledgeBase): Image => {
    let image = images.get(kb);
    if (image) return image;
    const f = kb.file;
    if (f) {
      image = {
        etag: `"${f.sha256}"`,
        size: f.size,
        lastModified: new Date(f.mtimeMs),
        intact() {
          const st = fstatSync(f.fd);
          return st.size === f.size && st.mtimeMs === f.mtimeMs;
        },
        send(res, start, end) {
          // a descriptor of its own for each download, opened through the one held (/dev/fd/N reopens
          // the verified file even after its path was replaced or deleted): closing it when the
          // download ends, or is cut short, leaves the held one open
          pipeline(createReadStream(`/dev/fd/${f.fd}`, { start, end, highWaterMark: 64 * 1024 }), res, () => undefined);
        },
      };
    } else {
      const bytes = kb.db.serialize();
      image = {
        etag: `"${createHash('sha256').update(bytes).digest('hex')}"`,
        size: bytes.length,
        lastModified: null,
        intact: () => true,
        send: (res, start, end) => void res.end(bytes.subarray(start, end + 1)),
      };
    }
    images.set(kb, image);
    return image;
  };
  router.get('/download/crkb.db', (req: Request, res: Response) => {
    const image = imageOf(opts.kb());
    if (!image.intact()) {
      unavailable(res, 5, 'the database file was rewritten in place since this server verified it; it is being loaded again');
      return;
    }
    res.set('ETag', image.etag);
    if (image.lastModified) res.set('Last-Modified', image.lastModified.toUTCString());
    if (req.fresh) {
      res.set(HEADERS).status(304).end();
      return;
    }
    if (req.method !== 'HEAD' && sending >= max) {
      res.removeHeader('ETag');
      res.removeHeader('Last-Modified');
      unavailable(res, 30, `${max} downloads are being sent by this server process; try again shortly`);
      return;
    }
    res.set(HEADERS);
    let start = 0;
    let end = image.size - 1;
    const ifRange = req.headers['if-range'];
    const ranges = ifRange === undefined || ifRange === image.etag ? req.range(image.size, { combine: true }) : undefined;
    if (ranges === -1) {
      res.status(416).set('Content-Range', `bytes */${image.size}`).end();
      return;
    }
    // one range is served; several (or a malformed header) get the whole file, as express's sendFile does
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1) {
      start = ranges[0]!.start;
      end = ranges[0]!.end;
      res.status(206).set('Content-Range', `bytes ${start}-${end}/${image.size}`);
    }
    res.set('Content-Length', String(end - start + 1));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    sending++;
    res.once('close', () => sending--);
    image.send(res, start, end);
  });
  return router;
}
