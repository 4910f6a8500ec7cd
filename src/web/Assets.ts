import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Router } from 'express';
import { projectRoot } from '../core/projectFiles.js';
import { IMMUTABLE } from '../http/ResponseCache.js';

/** One browser file built by scripts/buildWeb.mjs into dist/web/. */
interface Asset {
  body: Buffer;
  type: string;
  version: string;
}

const TYPES = new Map([
  ['js', 'text/javascript; charset=utf-8'],
  ['css', 'text/css; charset=utf-8'],
]);
/** The browser files the pages use. */
const ASSET_NAMES = ['site.css', 'app.js', 'graphiql.js', 'graphiql.css'] as const;
export type AssetName = (typeof ASSET_NAMES)[number];

/** The built browser files (dist/web, beside dist/src), each with a content hash for its URL. */
export class Assets {
  private readonly files = new Map<string, Asset>();
  /** Files missing from the build (the pages still work, without style or scripts). */
  readonly missing: string[] = [];

  constructor(dir: URL = pathToFileURL(join(projectRoot(), 'dist', 'web') + '/')) {
    for (const name of ASSET_NAMES) {
      try {
        const body = readFileSync(new URL(name, dir));
        const version = createHash('sha1').update(body).digest('base64url').slice(0, 12);
        this.files.set(name, { body, type: TYPES.get(name.split('.').pop()!)!, version });
      } catch {
        this.missing.push(name);
      }
    }
  }

  /** The URL of a file: its content hash in the query, so it can be cached forever. */
  url(name: AssetName): string {
    return `/assets/${name}?v=${this.files.get(name)?.version ?? '0'}`;
  }

  /** GET /assets/NAME: the file, immutable (its URL changes with its content). */
  router(): Router {
    const router = Router();
    router.get('/:name', (req, res) => {
      const a = this.files.get(String(req.params.name));
      if (!a) {
        res.status(404).type('text/plain').send('no such asset');
        return;
      }
      res.set('Content-Type', a.type);
      res.set('Cache-Control', req.query.v === a.version ? IMMUTABLE : 'public, max-age=300');
      res.set('ETag', `"${a.version}"`);
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      res.send(a.body);
    });
    return router;
  }
}
