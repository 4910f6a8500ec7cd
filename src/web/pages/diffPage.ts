import type { EditionInfo } from '../../core/records.js';
import type { ChangeKind, DiffSegment, EditionDiff, KnowledgeBase, RuleChange } from '../../query/KnowledgeBase.js';
import { QueryError } from '../../query/QueryError.js';
import { neighbourReleases } from '../../query/releaseList.js';
import { summarizeRenumbering } from '../../query/summarizeRenumbering.js';
import { emphasized, html, trusted, type Html } from '../html.js';
import { editionLabel, type PageSpec } from '../layout.js';
import { rulePath } from '../RuleLinker.js';
import { editionOptions } from './tocPage.js';

/** Kinds of change, in the order the filters list them. */
export const DIFF_KINDS: readonly ChangeKind[] = ['added', 'removed', 'substantive', 'references', 'renumbered', 'typography'];
const KIND_LABEL: Record<ChangeKind, string> = {
  added: 'added',
  removed: 'removed',
  substantive: 'reworded',
  references: 'references',
  renumbered: 'renumbered',
  typography: 'typography',
};
/**
 * Most entries one page of a diff lists (rule changes, then example changes, then glossary changes, in
 * that order across its pages), and most characters of their texts: a release of hundreds of changes is
 * read page by page, each page 30-110 KB (the largest releases made single pages of 800 KB, 20-30 ms of
 * server time each).
 */
export const PAGE_ENTRIES = 100;
const PAGE_CHARS = 40_000;
/** What an entry's heading and markup weigh besides its texts, in characters. */
const ENTRY_CHARS = 250;
const MAX_RENUMBERING_LINES = 200;

/** What the diff page shows: the filters of its query string. */
export interface DiffView {
  section: string | null;
  kinds: ChangeKind[];
  view: 'inline' | 'side';
  /** The page of the diff's changes, from 1. */
  page: number;
}

/** Word segments as one text: deletions struck, insertions underlined. */
export function inlineSegments(segs: readonly DiffSegment[]): Html {
  let out = '';
  for (const s of segs) {
    const text = emphasized(s.text).value;
    out += s.op === 'equal' ? text : s.op === 'insert' ? '<ins>' + text + '</ins>' : '<del>' + text + '</del>';
  }
  return trusted(out);
}

// A word diff's inline view and both sides in one pass, each segment escaped once (a change shows all three):
// strings joined directly, not a template and an Html per segment (most of a diff page is these texts).
function segmentViews(segs: readonly DiffSegment[]): { inline: Html; before: Html; after: Html } {
  let inline = '';
  let before = '';
  let after = '';
  for (const s of segs) {
    const text = emphasized(s.text).value;
    if (s.op === 'equal') {
      inline += text;
      before += text;
      after += text;
    } else if (s.op === 'insert') {
      const m = '<ins>' + text + '</ins>';
      inline += m;
      after += m;
    } else {
      const m = '<del>' + text + '</del>';
      inline += m;
      before += m;
    }
  }
  return { inline: trusted(inline), before: trusted(before), after: trusted(after) };
}

/** A change whose two sides have the same words (renumbered, or typography only): one text shows in both views. */
const sameWords = (c: RuleChange): boolean => c.before !== null && c.after !== null && (c.textChange === 'none' || c.before.text === c.after.text);

function change(c: RuleChange, fromArg: string, toArg: string): Html {
  const b = c.before;
  const a = c.after;
  const title = !b ? a!.number : !a ? b.number : c.renumbered ? `${b.number} → ${a.number}` : a.number;
  const links = html`<span class="both">${b ? html`<a href="${rulePath(fromArg, b.number)}">${b.number} before</a>` : null}${b && a ? ' · ' : null}${a ? html`<a href="${rulePath(toArg, a.number)}">${a.number} after</a>` : null}</span>`;
  const head = html`<h4>${title} ${c.kinds.map((k) => html`<span class="badge ${k}">${KIND_LABEL[k]}</span>`)} ${links}</h4>`;
  // (a change of other words has word segments: the diff makes them for every change a page lists)
  if (sameWords(c)) {
    return html`<article class="change" data-section="${c.section}" data-kinds="${c.kinds.join(' ')}">${head}<p>${c.segments ? inlineSegments(c.segments) : a!.text}</p></article>\n`;
  }
  const views = c.segments ? segmentViews(c.segments) : null;
  const inline = views ? views.inline : !a ? html`<del>${emphasized(b!.text)}</del>` : html`<ins>${emphasized(a.text)}</ins>`;
  const before = views ? views.before : b ? html`<del>${emphasized(b.text)}</del>` : null;
  const after = views ? views.after : a ? html`<ins>${emphasized(a.text)}</ins>` : null;
  return html`<article class="change" data-section="${c.section}" data-kinds="${c.kinds.join(' ')}">${head}
<p class="inline">${inline}</p>
<div class="side"><div class="before"><span class="side-label">Before<span class="visually-hidden">:</span></span> ${before ?? html`<em>(not in this edition)</em>`}</div><div class="after"><span class="side-label">After<span class="visually-hidden">:</span></span> ${after ?? html`<em>(not in this edition)</em>`}</div></div>
</article>\n`;
}

/** The filters of a diff, and its page, as a query string ("?section=613&view=side&page=2", or ""). */
export function diffQuery(v: DiffView | null): string {
  const q = new URLSearchParams();
  if (v?.section) q.set('section', v.section);
  if (v?.kinds.length) q.set('kind', v.kinds.join(','));
  if (v && v.view !== 'inline') q.set('view', v.view);
  if (v && v.page > 1) q.set('page', String(v.page));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** From/to pickers (GET /diff?from=…&to=…), keeping the diff's section, kinds and view. */
export function diffPickers(kb: KnowledgeBase, from: EditionInfo | null, to: EditionInfo | null, v: DiffView | null): Html {
  return html`<form class="picker diff-pickers" method="get" action="/diff">
<label for="pick-from">From</label>
<select id="pick-from" name="from">${editionOptions(kb, from)}</select>
<label for="pick-to">To</label>
<select id="pick-to" name="to">${editionOptions(kb, to)}</select>
${v?.section ? html`<input type="hidden" name="section" value="${v.section}">` : null}
${v?.kinds.length ? html`<input type="hidden" name="kind" value="${v.kinds.join(',')}">` : null}
${v && v.view !== 'inline' ? html`<input type="hidden" name="view" value="${v.view}">` : null}
<button type="submit">Compare</button>
</form>`;
}

/**
 * The pages of a diff: its rule changes, then example changes, then glossary changes, in that order,
 * cut into pages of at most PAGE_ENTRIES entries and PAGE_CHARS characters of their texts (a page
 * holds one entry at least). Where page `page`'s entries of each list are, [from, up to).
 */
function pageOf(d: { rules: readonly RuleChange[]; examples: EditionDiff['examples']; glossary: EditionDiff['glossary'] }, page: number) {
  const weights = [
    // a changed text shows inline and side by side (before and after); the same words once
    ...d.rules.map((c) => ENTRY_CHARS + (sameWords(c) ? c.after!.text.length : (c.before?.text.length ?? 0) * 2 + (c.after?.text.length ?? 0) * 2)),
    ...d.examples.map((x) => ENTRY_CHARS + x.before.reduce((n, t) => n + t.length, 0) + x.after.reduce((n, t) => n + t.length, 0)),
    ...d.glossary.map((g) => ENTRY_CHARS + (g.before?.length ?? 0) + (g.after?.length ?? 0)),
  ];
  // starts[k]: the first entry of page k + 1
  const starts = [0];
  let chars = 0;
  for (let k = 0; k < weights.length; k++) {
    const n = k - starts.at(-1)!;
    if (n > 0 && (n === PAGE_ENTRIES || chars + weights[k]! > PAGE_CHARS)) {
      starts.push(k);
      chars = 0;
    }
    chars += weights[k]!;
  }
  const pages = starts.length;
  if (page > pages)
    throw new QueryError('NOT_FOUND', `page ${page} of this diff does not exist: its changes fill ${pages} page${pages === 1 ? '' : 's'}`, {
      argument: 'page',
    });
  const start = starts[page - 1]!;
  const end = starts[page] ?? weights.length;
  const slice = (offset: number, n: number): [number, number] => [Math.min(n, Math.max(0, start - offset)), Math.min(n, Math.max(0, end - offset))];
  // the page holding the first entry of a list that starts at `offset` (null: an empty list)
  const pageHolding = (offset: number, n: number): number | null => (n === 0 ? null : starts.findLastIndex((s) => s <= offset) + 1);
  const rules = d.rules.length;
  const examples = d.examples.length;
  return {
    pages,
    rules: slice(0, rules),
    examples: slice(rules, examples),
    glossary: slice(rules + examples, d.glossary.length),
    firstExamplePage: pageHolding(rules, examples),
    firstGlossaryPage: pageHolding(rules + examples, d.glossary.length),
  };
}

// Links to every page of a diff (none when it has one), the current one marked, and where its examples and glossary changes start.
function pager(base: string, v: DiffView, p: ReturnType<typeof pageOf>, id: string): Html | null {
  if (p.pages === 1) return null;
  const at = (n: number): string => `${base}${diffQuery({ ...v, page: n })}`;
  const parts = [
    p.firstExamplePage !== null ? html` <a href="${at(p.firstExamplePage)}#ex-h">Example changes</a> start on page ${p.firstExamplePage}.` : null,
    p.firstGlossaryPage !== null ? html` <a href="${at(p.firstGlossaryPage)}#gl-h">Glossary changes</a> start on page ${p.firstGlossaryPage}.` : null,
  ];
  return html`<nav class="pager" aria-labelledby="${id}"><p id="${id}">Page ${v.page} of ${p.pages}.${parts}</p>
<ol>${Array.from({ length: p.pages }, (_, k) =>
    k + 1 === v.page ? html`<li><a href="${at(k + 1)}" aria-current="page">${k + 1}</a></li>` : html`<li><a href="${at(k + 1)}">${k + 1}</a></li>`,
  )}</ol>
${v.page > 1 ? html`<a href="${at(v.page - 1)}">← Previous page</a>` : null}${v.page > 1 && v.page < p.pages ? ' · ' : null}${v.page < p.pages ? html`<a href="${at(v.page + 1)}">Next page →</a>` : null}</nav>`;
}

/** Release notes between two editions, a page of them: counts, renumbering, changes by section with filters and two views, example and glossary changes. */
export function diffPage(kb: KnowledgeBase, from: EditionInfo, to: EditionInfo, fromArg: string, toArg: string, v: DiffView): PageSpec {
  // the lists without word segments first (kept diffs, or a filter of one): the page's places follow from their lengths
  const bare = { segments: false };
  const all = kb.diff(from, to, bare);
  // a section scopes every part of the page (counts, renumbering, examples, glossary); the kinds only the list of changes
  const section = v.section ? { section: v.section } : {};
  const scopedBare = v.section ? kb.diff(from, to, { ...section, ...bare }) : all;
  const listedBare = v.kinds.length ? kb.diff(from, to, { ...section, kinds: v.kinds, ...bare }) : scopedBare;
  const p = pageOf({ rules: listedBare.changes, examples: scopedBare.examples, glossary: scopedBare.glossary }, v.page);
  // word segments only for the changes this page lists (the scoped diff gives the glossary's)
  const segmentsIn = { changes: p.rules, glossary: p.glossary };
  const scoped = kb.diff(from, to, { ...section, segmentsIn });
  const d: EditionDiff = v.kinds.length ? kb.diff(from, to, { ...section, kinds: v.kinds, segmentsIn }) : scoped;
  const c = scoped.counts;
  const titles = new Map(all.sections.map((s) => [s.section, s.title]));
  const shown = d.changes.slice(...p.rules);
  const groups: Array<{ section: string; changes: RuleChange[] }> = [];
  for (const ch of shown) {
    if (groups.at(-1)?.section !== ch.section) groups.push({ section: ch.section, changes: [] });
    groups.at(-1)!.changes.push(ch);
  }
  const examples = scoped.examples.slice(...p.examples);
  const glossary = scoped.glossary.slice(...p.glossary);
  const renumbering = summarizeRenumbering(scoped.renumbering);
  const base = `/diff/${encodeURIComponent(fromArg)}/${encodeURIComponent(toArg)}`;
  const firstPage = { ...v, page: 1 };
  // a count opens the changes of its kind alone (one click to "only the reworded rules", with no script)
  const only = (k: ChangeKind): Html | number =>
    c[k] > 0 && !(v.kinds.length === 1 && v.kinds[0] === k)
      ? html`<a href="${base}${diffQuery({ ...firstPage, kinds: [k] })}" title="Show only these changes">${c[k]}</a>`
      : c[k];
  const counts = html`${v.section ? html`<p class="scope">Counts, renumbering, examples and glossary entries of section ${v.section} only (<a href="${base}">the whole release</a>).</p>` : null}<dl class="counts">
<div><dt>Changed rules</dt><dd>${c.total}</dd></div>
<div><dt>Added</dt><dd>${only('added')}</dd></div>
<div><dt>Removed</dt><dd>${only('removed')}</dd></div>
<div><dt>Reworded</dt><dd>${only('substantive')}</dd></div>
<div><dt>Reference updates</dt><dd>${only('references')}</dd></div>
<div><dt>Renumbered</dt><dd>${only('renumbered')}</dd></div>
<div><dt>Typography only</dt><dd>${only('typography')}</dd></div>
<div><dt>Glossary entries</dt><dd>${scoped.glossary.length}</dd></div>
</dl>`;
  const filters = html`<form class="filters" method="get" action="${base}" data-diff-filters>
<div><label for="f-section">Section</label>
<select id="f-section" name="section"><option value="">All sections</option>${all.sections.map(
    (s) =>
      html`<option value="${s.section}"${s.section === v.section ? html` selected` : null}>${s.section}${s.title ? ` ${s.title}` : ''} (${s.changes})</option>`,
  )}</select></div>
<fieldset><legend>Kinds</legend>${DIFF_KINDS.map(
    (k) =>
      html`<label><input type="checkbox" name="kind" value="${k}"${v.kinds.length === 0 || v.kinds.includes(k) ? html` checked` : null}> ${KIND_LABEL[k]} (${c[k]})</label>`,
  )}</fieldset>
<fieldset><legend>View</legend>
<label><input type="radio" name="view" value="inline"${v.view === 'inline' ? html` checked` : null}> inline</label>
<label><input type="radio" name="view" value="side"${v.view === 'side' ? html` checked` : null}> side by side</label></fieldset>
<button type="submit">Apply</button>
<p class="shown" aria-live="polite">${shown.length === d.changes.length ? `${shown.length} of ${c.total} changes shown` : `${shown.length ? `${p.rules[0] + 1}–${p.rules[1]}` : 'none'} of ${d.changes.length} changes on this page`}</p>
</form>`;
  const near = neighbourReleases(kb, from, to);
  const keep = diffQuery(firstPage);
  const releaseNav = html`<nav class="prevnext releases-nav" aria-label="Releases">
${near.previous ? html`<a rel="prev" href="/diff/${near.previous[0].effectiveDate}/${near.previous[1].effectiveDate}${keep}">← Previous release (${near.previous[1].effectiveDate})</a>` : html`<span></span>`}
<a href="/diff">Every release</a>
${near.next ? html`<a rel="next" href="/diff/${near.next[0].effectiveDate}/${near.next[1].effectiveDate}${keep}">Next release (${near.next[1].effectiveDate}) →</a>` : html`<span></span>`}
</nav>`;
  const main = html`<h1>What changed: ${from.effectiveDate} → ${to.effectiveDate}</h1>
<p class="lede">From <a href="/cr/${encodeURIComponent(fromArg)}">${editionLabel(from)}</a> to <a href="/cr/${encodeURIComponent(toArg)}">${editionLabel(to)}</a>.</p>
${releaseNav}
${diffPickers(kb, from, to, firstPage)}
${counts}
${renumbering.length ? html`<section aria-labelledby="renum-h"><h2 id="renum-h">Renumbering</h2><ul class="renumbering">${renumbering.slice(0, MAX_RENUMBERING_LINES).map((l) => html`<li>${l}</li>`)}</ul>${renumbering.length > MAX_RENUMBERING_LINES ? html`<p>…and ${renumbering.length - MAX_RENUMBERING_LINES} more lines.</p>` : null}</section>` : null}
<section aria-labelledby="changes-h"><h2 id="changes-h">Changes by section</h2>
${filters}
${pager(base, v, p, 'pager-top')}
<div id="changes" class="changes view-${v.view}"${!v.section && !v.kinds.length && d.changes.length === shown.length ? null : html` data-filtered`}>
${groups.map(
  (
    g,
  ) => html`<section class="group" data-section="${g.section}" aria-labelledby="s-${g.section}"><h3 id="s-${g.section}"><a href="${base}?section=${g.section}">${g.section}${titles.get(g.section) ? ` ${titles.get(g.section)!}` : ''}</a></h3>
${g.changes.map((ch) => change(ch, fromArg, toArg))}</section>`,
)}
</div>
${d.changes.length === 0 ? html`<p>No change matches these filters.</p>` : shown.length === 0 ? html`<p>The rule changes are on the pages before this one.</p>` : null}
</section>
${
  examples.length
    ? html`<section aria-labelledby="ex-h"><h2 id="ex-h">Example changes</h2>${examples.map(
        (x) => html`<article class="example-change"><h3><a href="${rulePath(toArg, x.number)}">${x.number}</a></h3>
${x.before.filter((t) => !x.after.includes(t)).map((t) => html`<p><del>Example: ${t}</del></p>`)}
${x.after.filter((t) => !x.before.includes(t)).map((t) => html`<p><ins>Example: ${t}</ins></p>`)}</article>`,
      )}</section>`
    : null
}
${
  glossary.length
    ? html`<section aria-labelledby="gl-h"><h2 id="gl-h">Glossary changes${v.section ? ` citing ${v.section}` : ''}</h2><dl class="glossary-changes">${glossary.map(
        (
          g,
        ) => html`<div><dt>${g.term} <span class="badge ${g.before === null ? 'added' : g.after === null ? 'removed' : 'substantive'}">${g.before === null ? 'added' : g.after === null ? 'removed' : 'changed'}</span></dt>
<dd>${g.segments ? inlineSegments(g.segments) : g.after !== null ? html`<ins>${g.after}</ins>` : html`<del>${g.before ?? ''}</del>`}</dd></div>`,
      )}</dl></section>`
    : null
}
${pager(base, v, p, 'pager-bottom')}`;
  return {
    title: `Changes ${from.effectiveDate} → ${to.effectiveDate}${v.page > 1 ? ` (page ${v.page})` : ''}`,
    canonical: `/diff/${from.effectiveDate}/${to.effectiveDate}${v.page > 1 ? `?page=${v.page}` : ''}`,
    description: `${c.total} changed rules between the Comprehensive Rules of ${from.effectiveDate} and ${to.effectiveDate}.`,
    main,
  };
}
