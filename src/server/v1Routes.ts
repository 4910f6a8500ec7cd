import express, { Router, type Request, type Response } from 'express';
import { escapeSnippet } from '../core/escapeHtml.js';
import type { RuleRecord } from '../core/records.js';
import { checkCitations, citationsJson, citationsMarkdown } from '../query/checkCitations.js';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import { escapeMd, formatLookup, lookupJson, type LookupFormat } from '../query/formatLookup.js';
import { countArg, formatArg, oneParam, requiredArg, ruleNumberArg } from '../query/edgeArgs.js';
import { QueryError } from '../query/QueryError.js';
import { codeOf, statusOf, toApiError } from './errors.js';
import { ERROR, IMMUTABLE, SHORT, etagOf, sendCached, type CachedResponse, type ResponseCache } from './ResponseCache.js';

/** Options of the bot endpoints. */
export interface V1Options {
  /** The query layer (a function: the server may swap in a new database). */
  kb: () => KnowledgeBase;
  cache: ResponseCache | null;
  /** Base of the URLs printed in answers ("https://crkb.example"); never taken from request headers. */
  publicUrl: () => string;
}

const CONTENT_TYPE: Record<LookupFormat, string> = {
  json: 'application/json; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
};

const param = (req: Request, name: string): string | undefined => oneParam(req.query as Record<string, unknown>, name);

function flag(req: Request, name: string): boolean {
  const v = param(req, name);
  return v !== undefined && v !== '0' && v !== 'false' && v !== '';
}

const formatParam = (req: Request): LookupFormat => formatArg(param(req, 'format'), ['json', 'text', 'markdown'], 'json');

/**
 * The bot endpoints: GET /v1/lookup?q=…&edition=…&format=json|text|markdown&examples=1,
 * GET /v1/rules/:number, GET /v1/search?q=…&edition=…&limit=10&format=… and POST /v1/citations.
 */
export function v1Routes(opts: V1Options): Router {
  const { cache } = opts;
  const router = Router();

  /** Serves one cacheable answer: format, ETag and Cache-Control, errors as 4xx in the asked format. */
  const respond = (req: Request, res: Response, produce: (format: LookupFormat) => { body: string; exact: boolean }) => {
    const key = req.originalUrl;
    const hit = cache?.get(key);
    if (hit) return sendCached(req, res, hit);
    let format: LookupFormat = 'json';
    let entry: CachedResponse;
    try {
      format = formatParam(req);
      const { body, exact } = produce(format);
      entry = { status: 200, contentType: CONTENT_TYPE[format], body, etag: etagOf(body), cacheControl: exact ? IMMUTABLE : SHORT };
    } catch (e) {
      const code = codeOf(e);
      if (code === undefined) throw e;
      const err = toApiError(e);
      const suggestions = (err.extensions.suggestions as string[] | undefined) ?? [];
      const body =
        format === 'json'
          ? JSON.stringify({ error: { code, message: err.message, ...(suggestions.length ? { suggestions } : {}) } })
          : `${err.message}.${suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`;
      entry = { status: statusOf(code), contentType: CONTENT_TYPE[format], body, etag: etagOf(body), cacheControl: ERROR };
    }
    return sendCached(req, res, cache?.set(key, entry) ?? entry);
  };

  const answer = (req: Request, res: Response, q: (req: Request) => string) =>
    respond(req, res, (format) => {
      const examples = flag(req, 'examples');
      const full = flag(req, 'full');
      const query = q(req);
      const kb = opts.kb();
      const edition = kb.resolveEdition(param(req, 'edition'));
      const a = kb.lookup(edition.edition, query);
      const base = opts.publicUrl();
      const params = new URLSearchParams({ q: query, edition: edition.edition.effectiveDate, format: format === 'json' ? 'text' : format, full: '1' });
      if (examples) params.set('examples', '1');
      const fullUrl = `${base}/v1/lookup?${params}`;
      const examplesOf = (r: RuleRecord) => kb.examples(r);
      const fo = { examples, fullUrl, full };
      const body = format === 'json' ? JSON.stringify(lookupJson(a, examplesOf, fo)) : formatLookup(a, format, examplesOf, fo);
      return { body, exact: edition.exact };
    });

  router.get('/lookup', (req, res) => answer(req, res, (r) => requiredArg(param(r, 'q'), 'q')));
  router.get('/rules/:number', (req, res) => answer(req, res, (r) => ruleNumberArg(String(r.params.number))));
  router.get('/search', (req, res) =>
    respond(req, res, (format) => {
      const q = requiredArg(param(req, 'q'), 'q');
      const limit = countArg(param(req, 'limit'), { argument: 'limit', min: 1, max: 50, fallback: 10 });
      const kb = opts.kb();
      const edition = kb.resolveEdition(param(req, 'edition'));
      const marks = format === 'json' ? { open: '<b>', close: '</b>' } : format === 'markdown' ? { open: '**', close: '**' } : { open: '', close: '' };
      // JSON snippets are HTML (matches in <b>) and markdown ones Markdown (matches in **): their text is escaped
      const escape = format === 'json' ? escapeSnippet : format === 'markdown' ? escapeMd : undefined;
      const hits = kb.search(edition.edition.id, q, { limit, marks, ...(escape ? { escape } : {}) }).map((h) => ({
        kind: h.kind,
        number: h.rule?.number ?? null,
        term: h.glossary?.term ?? null,
        exampleIndex: h.exampleIndex,
        snippet: h.snippet,
      }));
      const date = edition.edition.effectiveDate;
      const body = format === 'json' ? JSON.stringify({ query: q, edition: date, hits }) : searchText(q, date, hits, format);
      return { body, exact: edition.exact };
    }),
  );
  // One edition whole, as `crkb export` prints it.
  router.get('/editions/:file', (req, res, next) => {
    const file = String(req.params.file);
    if (!file.endsWith('.json')) return next();
    const key = req.originalUrl;
    const hit = cache?.get(key);
    if (hit) return sendCached(req, res, hit);
    let entry: CachedResponse;
    try {
      const kb = opts.kb();
      const { edition, exact } = kb.resolveEdition(file.slice(0, -'.json'.length));
      const body = JSON.stringify(kb.exportEdition(edition));
      entry = { status: 200, contentType: CONTENT_TYPE.json, body, etag: etagOf(body), cacheControl: exact ? IMMUTABLE : SHORT };
    } catch (e) {
      const code = codeOf(e);
      if (code === undefined) throw e;
      const body = JSON.stringify({ error: { code, message: toApiError(e).message } });
      entry = { status: statusOf(code), contentType: CONTENT_TYPE.json, body, etag: etagOf(body), cacheControl: ERROR };
    }
    return sendCached(req, res, cache?.set(key, entry) ?? entry);
  });
  router.post('/citations', express.json({ limit: '1mb', type: () => true }), (req, res) => {
    try {
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
      const format = formatArg(str('format') ?? param(req, 'format'), ['json', 'markdown'], 'json');
      const r = checkCitations(opts.kb(), { text: str('text'), numbers: (numbers as string[] | null | undefined) ?? null, asOf: str('asOf'), to: str('to') });
      res.set('Cache-Control', 'no-store');
      if (format === 'json') res.type('application/json; charset=utf-8').send(JSON.stringify(citationsJson(r)));
      else res.type('text/markdown; charset=utf-8').send(citationsMarkdown(r));
    } catch (e) {
      const code = codeOf(e);
      if (code === undefined) throw e;
      const err = toApiError(e);
      res.status(statusOf(code)).json({ error: { code, message: err.message, ...(err.extensions.argument ? { argument: err.extensions.argument } : {}) } });
    }
  });
  return router;
}

/** Search hits as chat lines: "702.19b …snippet…", at most 2,000 characters. */
function searchText(
  q: string,
  edition: string,
  hits: Array<{ kind: string; number: string | null; term: string | null; exampleIndex: number | null; snippet: string }>,
  format: 'text' | 'markdown',
): string {
  if (hits.length === 0) return `No rule of the ${edition} edition matches "${q.slice(0, 80)}".`;
  const lines: string[] = [];
  let size = 0;
  for (const h of hits) {
    const where = h.kind === 'glossary' ? `Glossary: ${h.term}` : h.kind === 'example' ? `${h.number} (example)` : (h.number ?? '');
    const line = format === 'markdown' ? `- **${escapeMd(where)}** ${h.snippet}` : `${where} ${h.snippet}`;
    if (size + line.length + 1 > 1900) break;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push(format === 'markdown' ? `*CR ${edition}*` : `(CR ${edition})`);
  return lines.join('\n');
}
