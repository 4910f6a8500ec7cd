import type { EditionInfo } from '../../core/records.js';
import { clip } from '../../query/chatText.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { formerNumber } from '../../query/currentPlace.js';
import { parseQuery } from '../../query/parseQuery.js';
import { escapeHtml } from '../../core/escapeHtml.js';
import { html, trusted, type Html } from '../html.js';
import { editionLabel, type PageSpec } from '../layout.js';
import { rulePath, termId } from '../RuleLinker.js';
import { formerNumberNote } from './formerNumber.js';
import { editionOptions } from './tocPage.js';

/** Hits a search page shows at once. */
const SEARCH_PAGE_SIZE = 25;

/** The ranked hits of a search as a list (the page's results, and the live fragment search-as-you-type fetches). */
export function searchResults(
  kb: KnowledgeBase,
  asked: EditionInfo,
  askedArg: string,
  q: string,
  opts: { offset: number; prefix: boolean; verbatim?: boolean },
): Html {
  if (q.trim() === '') return html`<div id="results" aria-live="polite"><p class="count">Type words to search the rules.</p></div>`;
  // an edition named in the query ("trample in 2010", "702.19b (AFR)") is the one searched, as a lookup reads it
  const scope = kb.searchScope(asked, q);
  const edition = scope.edition;
  const arg = scope.named ? edition.effectiveDate : askedArg;
  const { hits, total, capped } = kb.countedSearch(edition.id, scope.text, {
    limit: SEARCH_PAGE_SIZE,
    offset: opts.offset,
    prefix: opts.prefix,
    correct: opts.verbatim !== true,
    escape: escapeHtml,
    marks: { open: '<mark>', close: '</mark>' },
  });
  const shown = hits;
  const more = opts.offset + shown.length < total;
  const e = encodeURIComponent(arg);
  const items = shown.map((h) => {
    const href = h.glossary ? `/cr/${e}/glossary#${termId(h.glossary.term)}` : rulePath(arg, h.rule!.number);
    const where = h.glossary ? `Glossary: ${h.glossary.term}` : h.kind === 'example' ? `${h.rule!.number}, example` : h.rule!.number;
    return html`<li><a href="${href}">${where}</a> <span class="snippet">${trusted(h.snippet)}</span></li>`;
  });
  const searchUrl = (params: Record<string, string>) => `/search?${new URLSearchParams({ q, edition: askedArg, ...params })}`;
  const next = searchUrl({ offset: String(opts.offset + SEARCH_PAGE_SIZE), ...(opts.verbatim ? { verbatim: '1' } : {}) });
  const count =
    shown.length === 0
      ? `No rule matches “${scope.text}”.`
      : `${opts.offset + 1}–${opts.offset + shown.length} of ${capped ? `more than ${total.toLocaleString('en')}` : total.toLocaleString('en')} result${total === 1 ? '' : 's'}`;
  // a misspelt word was read as the edition's closest one: say so, and offer the words as typed
  const fixed = hits[0]?.correctedQuery ?? null;
  const corrected = fixed
    ? html`<p class="corrected">Showing results for <strong>${fixed}</strong> (searched for <em>${scope.text}</em>). <a href="${searchUrl({ verbatim: '1' })}">Search for ${scope.text} instead</a></p>`
    : null;
  const named = scope.named ? html`<p class="scope">Searching the ${editionLabel(kb.editionById(edition.id)!)} edition, named in the query.</p>` : null;
  // a rule number typed in the box: the rule itself first
  const p = parseQuery(scope.text);
  const rule = p.kind === 'number' ? kb.rule(edition.id, p.number) : null;
  const former = p.kind === 'number' && !rule ? formerNumber(kb, p.number, edition) : null;
  const jump = rule
    ? html`<p class="jump">Rule <a href="${rulePath(arg, rule.number)}">${rule.number}</a>: ${clip(rule.text, 120)}</p>`
    : p.kind === 'number'
      ? html`<div class="jump"><p>There is no rule ${p.number} in this edition.</p>${former ? formerNumberNote(former, arg) : null}</div>`
      : null;
  return html`<div id="results" aria-live="polite">${named}${jump}${corrected}<p class="count">${count}</p>
${shown.length ? html`<ol class="hits" start="${opts.offset + 1}">${items}</ol>` : null}
${more ? html`<p><a href="${next}">More results</a></p>` : null}</div>`;
}

/** The search page: a form (works without scripts), and the results (updated as you type with scripts). */
export function searchPage(kb: KnowledgeBase, edition: EditionInfo, arg: string, q: string, offset: number, verbatim = false): PageSpec {
  const main = html`<h1>Search the rules</h1>
<form class="search-page" method="get" action="/search" role="search" data-live-search>
<label for="q">Words or a rule number</label>
<input id="q" type="search" name="q" value="${q}" autocomplete="off" autofocus>
<label for="search-edition">Edition</label>
<select id="search-edition" name="edition">${editionOptions(kb, edition)}</select>
<button type="submit">Search</button>
</form>
${searchResults(kb, edition, arg, q, { offset, prefix: false, verbatim })}`;
  return { title: q ? `Search: ${q}` : 'Search', main, query: q, edition: arg };
}
