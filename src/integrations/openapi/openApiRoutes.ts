import { Router, type Request, type Response } from 'express';
import { SHORT, etagOf, sendCached } from '../../http/ResponseCache.js';
import { openApiDocument } from './openApiDocument.js';
import { renderApiReference } from './renderApiReference.js';

/** GET /openapi.json (OpenAPI 3.1 of the /v1 endpoints) and GET /docs/api (the same, rendered). */
export function openApiRoutes(opts: { publicUrl: () => string }): Router {
  const router = Router();
  const send = (req: Request, res: Response, contentType: string, body: string) =>
    sendCached(req, res, { status: 200, contentType, body, etag: etagOf(body), cacheControl: SHORT });
  const doc = () => openApiDocument(opts.publicUrl().replace(/\/+$/, ''));
  router.get('/openapi.json', (req, res) => send(req, res, 'application/json; charset=utf-8', JSON.stringify(doc())));
  router.get('/docs/api', (req, res) => send(req, res, 'text/html; charset=utf-8', renderApiReference(doc())));
  return router;
}
