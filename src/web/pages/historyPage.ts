import type { EditionInfo } from '../../core/records.js';
import { sectionOf } from '../../core/ruleNumber.js';
import { capitalize, historyStepWords, subruleChangeWords, subruleWords } from '../../query/chatText.js';
import type { HistoryStep, KnowledgeBase, RuleHistoryAnswer } from '../../query/KnowledgeBase.js';
import { emphasized, html, type Html } from '../html.js';
import { editionLabel, type PageSpec } from '../layout.js';
import { rulePath } from '../RuleLinker.js';
import { inlineSegments } from './diffPage.js';

/** The examples a history step removed and added (struck and underlined), from the two editions' rules. */
function exampleChanges(kb: KnowledgeBase, prev: HistoryStep, s: HistoryStep): Html {
  const examples = (date: string, number: string): string[] => {
    const r = kb.rule(kb.resolveEdition(date).edition.id, number);
    return r ? kb.examples(r) : [];
  };
  const before = examples(prev.date, prev.number);
  const after = examples(s.date, s.number);
  return html`<div class="example-change">${before.filter((t) => !after.includes(t)).map((t) => html`<p><del>Example: ${emphasized(t)}</del></p>`)}${after
    .filter((t) => !before.includes(t))
    .map((t) => html`<p><ins>Example: ${emphasized(t)}</ins></p>`)}</div>`;
}

/** The subrules a step added, removed, renumbered and changed, each a link to the rule in its edition. */
function subruleChanges(prev: HistoryStep, s: HistoryStep): Html {
  const c = s.subrules!;
  const now = (n: string) => html`<a href="${rulePath(s.date, n)}">${n}</a>`;
  const then = (n: string) => html`<a href="${rulePath(prev.date, n)}">${n}</a>`;
  const items: Html[] = [
    ...c.added.map((a) => html`<li class="added">${now(a.number)} added${a.from ? html` (was ${then(a.from)})` : null}</li>`),
    ...c.removed.map((r) => html`<li class="removed">${then(r.number)} removed${r.to ? html` (now ${now(r.to)})` : null}</li>`),
    ...c.renumbered.map((r) => html`<li class="renumbered">${then(r.from)} renumbered ${now(r.to)}</li>`),
    ...c.changed.map((x) => html`<li class="changed">${now(x.number)} ${subruleChangeWords(x)}</li>`),
  ];
  return html`<details class="subrule-changes"${c.added.length + c.removed.length + c.renumbered.length + c.changed.length <= 12 ? ' open' : ''}><summary>Subrules: ${subruleWords(c)}</summary><ul>${items}</ul></details>`;
}

/** A rule's timeline: every edition it appears in, what changed at each step, the runs in which it stayed the same. */
export function historyPage(kb: KnowledgeBase, edition: EditionInfo, number: string, h: RuleHistoryAnswer): PageSpec {
  const items: Html[] = [];
  let same: HistoryStep[] = [];
  const flush = () => {
    if (same.length === 0) return;
    const first = same[0]!;
    const last = same.at(-1)!;
    items.push(html`<li class="same"><p>Unchanged in ${same.length} edition${same.length > 1 ? 's' : ''}: ${first.date}${same.length > 1 ? ` to ${last.date}` : ''}</p>
<details><summary>Editions</summary><ul class="columns">${same.map((s) => html`<li><a href="${rulePath(s.date, s.number)}">${s.date}</a> (${s.number})</li>`)}</ul></details></li>`);
    same = [];
  };
  for (const [i, s] of h.steps.entries()) {
    if (s.change === 'unchanged') {
      same.push(s);
      continue;
    }
    flush();
    const text = s.segments && s.change === 'changed' ? inlineSegments(s.segments) : emphasized(s.text);
    const prev = h.steps[i - 1];
    const diff = prev
      ? html` · <a class="step-diff" href="/diff/${prev.date}/${s.date}?section=${sectionOf(s.number)}">what changed in ${sectionOf(s.number)}, ${prev.date} → ${s.date}</a>`
      : null;
    items.push(html`<li class="step ${s.change}"><h2><a href="${rulePath(s.date, s.number)}">${s.date}</a> <span class="num">${s.number}</span></h2>
<p class="what">${capitalize(historyStepWords(s, 'renumbered', 'named'))}${diff}</p><p class="text">${text}</p>${s.examplesChanged && prev ? exampleChanges(kb, prev, s) : null}${
      s.subrules && prev ? subruleChanges(prev, s) : null
    }</li>`);
  }
  flush();
  const ed = kb.editionById(edition.id)!;
  const main = html`<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="${rulePath(edition.effectiveDate, number)}">${number} in ${editionLabel(ed)}</a></li><li aria-current="page">History</li></ol></nav>
<h1>History of rule ${number}</h1>
<p class="lede">The rule ${number} of ${edition.effectiveDate}, followed across renumbering: ${h.steps.length} editions from ${h.first} to ${h.last}${h.numbers.length > 1 ? html`, under the numbers ${h.numbers.join(', ')}` : null}.</p>
${
  h.links.length
    ? html`<section aria-labelledby="links-h"><h2 id="links-h">Splits and merges</h2><ul>${h.links.map(
        (l) =>
          html`<li>${l.date}: ${l.kind === 'merge' ? 'merged' : 'split'} — <a href="${rulePath(l.prevDate, l.prevNumber)}">${l.prevNumber} (${l.prevDate})</a> → <a href="${rulePath(l.date, l.number)}">${l.number} (${l.date})</a></li>`,
      )}</ul></section>`
    : null
}
<ol class="timeline">${items}</ol>`;
  return { title: `History of ${number}`, main, edition: edition.effectiveDate };
}
