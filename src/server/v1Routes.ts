import express, { Router, type Request, type Response } from 'express';
import type { RuleRecord } from '../core/records.js';
import { CHAT_LIMIT, capLines, citationsMarkdown, editionLine, formatLookup, lookupJson, searchHitJson, searchLines, snippetStyle } from '../query/chatText.js';
import { checkCitations, citationsJson } from '../query/checkCitations.js';
import { countArg, familyArg, formatArg, oneParam, requiredArg, ruleNumberArg, type Format } from '../query/edgeArgs.js';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import { QueryError } from '../query/QueryError.js';
import { CONTENT_TYPE, errorResponse } from '../query/sendError.js';
import { ERROR, IMMUTABLE, NO_STORE, SHORT, etagOf, sendCached, type CachedResponse, type ResponseCache } from '../http/ResponseCache.js';

/** Options of the bot endpoints. */
export interface V1Options {
  /** The query layer (a function: the server may swap in a new database). */
  kb: () => KnowledgeBase;
  cache: ResponseCache | null;
  /** Base of the URLs printed in answers ("https://crkb.example"); never taken from request headers. */
  publicUrl: () => string;
}

/** What a route answers: its body and caching, and a content type, ETag and headers of its own when not the format's. */
interface Answer {
  body: string | Buffer;
  cacheControl: string;
  contentType?: string;
  etag?: string;
  headers?: Record<string, string>;
}

const param = (req: Request, name: string): string | undefined => oneParam(req.query, name);

function flag(req: Request, name: string): boolean {
  const v = param(req, name);
  return v !== undefined && v !== '0' && v !== 'false' && v !== '';
}

/**
 * The bot endpoints: GET /v1/lookup?q=…&edition=…&format=json|text|markdown&examples=1,
 * GET /v1/rules/:number, GET /v1/search?q=…&edition=…&limit=10&format=…, GET /v1/editions/:edition.json,
 * GET /v1/files/:edition.txt (and .utf8.txt) and POST /v1/citations.
 */
export function v1Routes(opts: V1Options): Router {
  const { cache } = opts;
  const router = Router();

  // Serves one answer with its ETag; the one place /v1 translates errors (a QueryError: the REST shape, in the format read so far).
  const serve = (req: Request, res: Response, produce: (asked: { format: Format }) => Answer) => {
    const get = req.method === 'GET';
    const hit = get ? cache?.get(req.originalUrl) : undefined;
    if (hit) return sendCached(req, res, hit);
    const asked: { format: Format } = { format: 'json' };
    let entry: CachedResponse;
    try {
      const a = produce(asked);
      entry = {
        status: 200,
        contentType: a.contentType ?? CONTENT_TYPE[asked.format],
        body: a.body,
        etag: a.etag ?? etagOf(a.body),
        cacheControl: a.cacheControl,
        ...(a.headers ? { headers: a.headers } : {}),
      };
    } catch (e) {
      if (!(e instanceof QueryError)) throw e;
      const r = errorResponse(e, asked.format);
      entry = { ...r, etag: etagOf(r.body), cacheControl: get ? ERROR : NO_STORE };
    }
    return sendCached(req, res, (get ? cache?.set(req.originalUrl, entry) : undefined) ?? entry);
  };
  const formatOf = (req: Request, asked: { format: Format }): Format => (asked.format = formatArg(param(req, 'format'), ['json', 'text', 'markdown'], 'json'));

  const lookup = (req: Request, res: Response, q: (req: Request) => string) =>
    serve(req, res, (asked) => {
      const format = formatOf(req, asked);
      const examples = flag(req, 'examples');
      const full = flag(req, 'full');
      const query = q(req);
      const kb = opts.kb();
      const edition = kb.lookupScope(param(req, 'edition'), query, familyArg(param(req, 'family')));
      const a = kb.lookup(edition.edition, edition.query);
      const base = opts.publicUrl();
      const params = new URLSearchParams({ q: query, edition: edition.edition.effectiveDate, format: format === 'json' ? 'text' : format, full: '1' });
      if (examples) params.set('examples', '1');
      const fullUrl = `${base}/v1/lookup?${params}`;
      const examplesOf = (r: RuleRecord) => kb.examples(r);
      const newerKnown = kb.newerKnownFor(edition.edition);
      const fo = { examples, fullUrl, full, newerKnown };
      const body = format === 'json' ? JSON.stringify(lookupJson(a, examplesOf, fo)) : formatLookup(a, format, examplesOf, fo);
      // an answer saying the database is behind changes once it is updated: never immutable
      return { body, cacheControl: edition.exact && !newerKnown ? IMMUTABLE : SHORT };
    });

  router.get('/lookup', (req, res) => lookup(req, res, (r) => requiredArg(param(r, 'q'), 'q')));
  router.get('/rules/:number', (req, res) => lookup(req, res, (r) => ruleNumberArg(String(r.params.number), 'number', familyArg(param(r, 'family')))));
  router.get('/search', (req, res) =>
    serve(req, res, (asked) => {
      const format = formatOf(req, asked);
      const q = requiredArg(param(req, 'q'), 'q');
      const limit = countArg(param(req, 'limit'), { argument: 'limit', min: 1, max: 50, fallback: 10 });
      const kb = opts.kb();
      const edition = kb.resolveEdition(param(req, 'edition'), familyArg(param(req, 'family')));
      const hits = kb.search(edition.edition.id, q, { limit, ...snippetStyle(format) });
      const date = edition.edition.effectiveDate;
      const family = edition.edition.family;
      const newerKnown = kb.newerKnownFor(edition.edition);
      const body =
        format === 'json'
          ? JSON.stringify({ query: q, edition: date, hits: hits.map(searchHitJson), newerKnown })
          : capLines([...searchLines(hits, q, date, format), editionLine(date, format, family)], CHAT_LIMIT, editionLine(date, format, family));
      return { body, cacheControl: edition.exact && !newerKnown ? IMMUTABLE : SHORT };
    }),
  );
  // One edition whole, as `crkb export` prints it.
  router.get('/editions/:file', (req, res, next) => {
    const file = String(req.params.file);
    if (!file.endsWith('.json')) return next();
    return serve(req, res, () => {
      const kb = opts.kb();
      const { edition, exact } = kb.resolveEdition(file.slice(0, -'.json'.length));
      return { body: JSON.stringify(kb.exportEdition(edition)), cacheControl: exact ? IMMUTABLE : SHORT };
    });
  });
  // An edition's text file as published (its sha256 is the ETag), or normalized to UTF-8 with LF line endings (NAME.utf8.txt).
  router.get('/files/:file', (req, res, next) => {
    const m = /^(.+?)(\.utf8)?\.txt$/.exec(String(req.params.file));
    if (!m) return next();
    const normalized = m[2] !== undefined;
    return serve(req, res, () => {
      const f = opts.kb().publishedFile(m[1]!, normalized);
      const date = f.edition.effectiveDate;
      return {
        body: f.body,
        contentType: f.contentType,
        etag: normalized ? etagOf(f.body) : `"${f.sha256}"`,
        cacheControl: f.exact ? IMMUTABLE : SHORT,
        headers: { 'X-Source-SHA256': f.sha256, 'Content-Location': `/v1/files/${date}${normalized ? '.utf8' : ''}.txt` },
      };
    });
  });
  router.post('/citations', express.json({ limit: '1mb', type: () => true }), (req, res) =>
    serve(req, res, (asked) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (typeof body !== 'object' || Array.isArray(body)) throw new QueryError('BAD_INPUT', 'the body must be a JSON object', { argument: 'body' });
      const str = (name: string): string | null => {
        const v = body[name];
        if (v === undefined || v === null) return null;
        if (typeof v !== 'string') throw new QueryError('BAD_INPUT', `"${name}" must be a string`, { argument: name });
        return v;
      };
      const numbers = body.numbers;
      if (numbers !== undefined && numbers !== null && !(Array.isArray(numbers) && numbers.every((n) => typeof n === 'string'))) {
        throw new QueryError('BAD_INPUT', '"numbers" must be an array of strings', { argument: 'numbers' });
      }
      const format = (asked.format = formatArg(str('format') ?? param(req, 'format'), ['json', 'markdown'], 'json'));
      const r = checkCitations(opts.kb(), { text: str('text'), numbers: numbers ?? null, asOf: str('asOf'), to: str('to') });
      return { body: format === 'json' ? JSON.stringify(citationsJson(r)) : citationsMarkdown(r), cacheControl: NO_STORE };
    }),
  );
  return router;
}
