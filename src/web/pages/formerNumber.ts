import type { EditionInfo, RuleRecord } from '../../core/records.js';
import { nearestNumbers } from '../../core/suggest.js';
import { ruleNow, type FormerNumber } from '../../query/currentPlace.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { html, type Html } from '../html.js';
import { editionLabel, type PageSpec } from '../layout.js';
import { rulePath } from '../RuleLinker.js';

/** What the lineage says of a number the edition lacks, as a sentence with links (`arg` names the edition in links). */
export function formerNumberNote(f: FormerNumber, arg: string): Html {
  const n = f.number;
  const last = html`<a href="${rulePath(f.then.effectiveDate, n)}">${n} of ${f.then.effectiveDate}</a>`;
  const history = html` · <a href="/history/${n}?edition=${f.then.effectiveDate}">its history</a>`;
  if (!f.earlier) {
    return html`<p class="moved">${n} is not in this edition yet: the number first appears in ${last}${f.now ? html`; that rule is <a href="${rulePath(arg, f.now.number)}">${f.now.number}</a> here` : null}.${history}</p>`;
  }
  if (f.now)
    return html`<p class="moved"><strong>${n} (until ${f.then.effectiveDate}) is now <a href="${rulePath(arg, f.now.number)}">${f.now.number}</a>.</strong> The last text under the old number: ${last}.${history}</p>`;
  return html`<p class="moved"><strong>${n} (until ${f.then.effectiveDate}) was removed in ${f.goneSince}${f.mergedInto ? html` (merged into <a href="${rulePath(arg, f.mergedInto.number)}">${f.mergedInto.number}</a>)` : null}.</strong> Its last text: ${last}.${history}</p>`;
}

/** The answer to a rule number the edition lacks but the lineage knows (GET /cr/:edition/:number, status 404). */
export function formerNumberPage(kb: KnowledgeBase, edition: EditionInfo, arg: string, f: FormerNumber): PageSpec {
  const near = nearestNumbers(f.number, kb.numbers(edition.id));
  const main = html`<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="/cr/${encodeURIComponent(arg)}">${editionLabel(edition)}</a></li><li aria-current="page">${f.number}</li></ol></nav>
<h1>No rule ${f.number} in ${edition.effectiveDate}</h1>
${formerNumberNote(f, arg)}
${near.length ? html`<p>Other numbers near it: ${near.map((x, i) => html`${i ? ', ' : ''}<a href="${rulePath(arg, x)}">${x}</a>`)}.</p>` : null}
<p><a href="/cr?number=${f.number}">Every edition with a rule ${f.number}</a></p>`;
  return { title: `No rule ${f.number} (CR ${edition.effectiveDate})`, main, edition: arg };
}

/** On a rule page of an edition older than the newest: where the same rule is in the newest edition, or that it is gone. */
export function newestPlaceNote(kb: KnowledgeBase, edition: EditionInfo, rule: RuleRecord): Html | null {
  const newest = kb.officialEditions(edition.family).at(-1);
  if (!newest || newest.effectiveDate <= edition.effectiveDate) return null;
  const p = ruleNow(kb, rule, edition, newest);
  const where = `the newest edition (${newest.effectiveDate})`;
  if (p.now) {
    const link = html`<a href="${rulePath('latest', p.now.number)}">${p.now.number}</a>`;
    return html`<p class="moved">${p.now.number === rule.number ? html`In ${where} this rule is still ${link}${p.now.textId === rule.textId ? null : ', reworded'}.` : html`In ${where} this rule is ${link}.`}</p>`;
  }
  return html`<p class="moved">This rule is not in ${where}: removed in ${p.goneSince ?? newest.effectiveDate}${p.mergedInto ? html` (merged into <a href="${rulePath('latest', p.mergedInto.number)}">${p.mergedInto.number}</a>)` : null}.</p>`;
}
