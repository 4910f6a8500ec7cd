import { statSync } from 'node:fs';
import { Router, type Request, type Response } from 'express';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { SHORT, etagOf } from '../../server/ResponseCache.js';

/** Options of the bulk download. */
export interface DownloadRouteOptions {
  /** The query layer served (its database is what is downloaded). */
  kb: () => KnowledgeBase;
}

const HEADERS = { 'Content-Type': 'application/vnd.sqlite3', 'Content-Disposition': 'attachment; filename="crkb.db"', 'Cache-Control': SHORT };

/**
 * GET /download/crkb.db: the read-only database file as served, with ETag, Last-Modified and range
 * requests; an in-memory database (tests, tools) is serialized once.
 */
export function downloadRoutes(opts: DownloadRouteOptions): Router {
  const router = Router();
  const images = new WeakMap<KnowledgeBase, { bytes: Buffer; etag: string }>();
  router.get('/download/crkb.db', (req: Request, res: Response, next) => {
    const kb = opts.kb();
    const db = kb.db;
    if (!db.memory) {
      // the file is replaced whole by an ingest (rename), never written in place: size and time identify it
      const st = statSync(db.name);
      res.set('ETag', `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`);
      if (req.fresh) {
        res.set(HEADERS).status(304).end();
        return;
      }
      res.sendFile(db.name, { headers: HEADERS, lastModified: true, dotfiles: 'allow' }, (err) => {
        if (err && !res.headersSent) next(err);
      });
      return;
    }
    let image = images.get(kb);
    if (!image) {
      const bytes = db.serialize();
      image = { bytes, etag: etagOf(bytes.toString('base64')) };
      images.set(kb, image);
    }
    res.set({ ...HEADERS, ETag: image.etag });
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.send(image.bytes);
  });
  return router;
}
