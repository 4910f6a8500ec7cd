import type { EditionInfo } from '../../core/records.js';
import { clip } from '../../query/chatText.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { formerNumber } from '../../query/currentPlace.js';
import { parseQuery } from '../../query/parseQuery.js';
import { escapeHtml } from '../../core/escapeHtml.js';
import { html, trusted, type Html } from '../html.js';
import { type PageSpec } from '../layout.js';
import { rulePath, termId } from '../RuleLinker.js';
import { formerNumberNote } from './formerNumber.js';
import { editionOptions } from './tocPage.js';

/** Hits a search page shows at once. */
const SEARCH_PAGE_SIZE = 25;

/** The ranked hits of a search as a list (the page's results, and the live fragment search-as-you-type fetches). */
export function searchResults(kb: KnowledgeBase, edition: EditionInfo, arg: string, q: string, opts: { offset: number; prefix: boolean }): Html {
  if (q.trim() === '') return html`<div id="results" aria-live="polite"><p class="count">Type words to search the rules.</p></div>`;
  const hits = kb.search(edition.id, q, {
    limit: SEARCH_PAGE_SIZE + 1,
    offset: opts.offset,
    prefix: opts.prefix,
    escape: escapeHtml,
    marks: { open: '<mark>', close: '</mark>' },
  });
  const more = hits.length > SEARCH_PAGE_SIZE;
  const shown = hits.slice(0, SEARCH_PAGE_SIZE);
  const e = encodeURIComponent(arg);
  const items = shown.map((h) => {
    const href = h.glossary ? `/cr/${e}/glossary#${termId(h.glossary.term)}` : rulePath(arg, h.rule!.number);
    const where = h.glossary ? `Glossary: ${h.glossary.term}` : h.kind === 'example' ? `${h.rule!.number}, example` : h.rule!.number;
    return html`<li><a href="${href}">${where}</a> <span class="snippet">${trusted(h.snippet)}</span></li>`;
  });
  const next = `/search?${new URLSearchParams({ q, edition: arg, offset: String(opts.offset + SEARCH_PAGE_SIZE) })}`;
  const count =
    shown.length === 0
      ? `No rule matches “${q}”.`
      : `${opts.offset + 1}–${opts.offset + shown.length} of ${more ? 'more' : opts.offset + shown.length} results`;
  // a rule number typed in the box: the rule itself first
  const p = parseQuery(q);
  const rule = p.kind === 'number' ? kb.rule(edition.id, p.number) : null;
  const former = p.kind === 'number' && !rule ? formerNumber(kb, p.number, edition) : null;
  const jump = rule
    ? html`<p class="jump">Rule <a href="${rulePath(arg, rule.number)}">${rule.number}</a>: ${clip(rule.text, 120)}</p>`
    : p.kind === 'number'
      ? html`<div class="jump"><p>There is no rule ${p.number} in this edition.</p>${former ? formerNumberNote(former, arg) : null}</div>`
      : null;
  return html`<div id="results" aria-live="polite">${jump}<p class="count">${count}</p>
${shown.length ? html`<ol class="hits" start="${opts.offset + 1}">${items}</ol>` : null}
${more ? html`<p><a href="${next}">More results</a></p>` : null}</div>`;
}

/** The search page: a form (works without scripts), and the results (updated as you type with scripts). */
export function searchPage(kb: KnowledgeBase, edition: EditionInfo, arg: string, q: string, offset: number): PageSpec {
  const main = html`<h1>Search the rules</h1>
<form class="search-page" method="get" action="/search" role="search" data-live-search>
<label for="q">Words or a rule number</label>
<input id="q" type="search" name="q" value="${q}" autocomplete="off" autofocus>
<label for="search-edition">Edition</label>
<select id="search-edition" name="edition">${editionOptions(kb, edition)}</select>
<button type="submit">Search</button>
</form>
${searchResults(kb, edition, arg, q, { offset, prefix: false })}`;
  return { title: q ? `Search: ${q}` : 'Search', main, query: q, edition: arg };
}
