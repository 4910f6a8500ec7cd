import type { EditionInfo, RuleRecord } from '../../core/records.js';
import { numberDepth, numberLevel } from '../../core/ruleNumber.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { html, type Html } from '../html.js';
import { editionLabel, type PageSpec } from '../layout.js';
import { RuleLinker, rulePath } from '../RuleLinker.js';
import { newestPlaceNote } from './formerNumber.js';

// A rule whose text is this short is a title ("Trample"), shown as the heading.
const TITLE_MAX = 60;
// A section with more rules than this opens with an index of them.
const LONG_SECTION = 20;

function isTitle(r: RuleRecord): boolean {
  return r.text.length <= TITLE_MAX && !/[.:]$/.test(r.text);
}

function heading(r: RuleRecord): string {
  return isTitle(r) ? `${r.number} ${r.text}` : `Rule ${r.number}`;
}

/** A rule page: the rule (section, rule or subrule) with everything below it, examples, links. */
export function rulePage(kb: KnowledgeBase, edition: EditionInfo, arg: string, rule: RuleRecord): PageSpec {
  const linker = new RuleLinker(kb, edition.id, arg);
  const e = encodeURIComponent(arg);
  // a number the edition prints twice (2024-09-20's 702.175): every rule of it, in document order
  const same = kb.sameNumber(rule).filter((r) => r.ord !== rule.ord);
  const rules = [rule, ...kb.descendants(rule), ...same.flatMap((r) => [r, ...kb.descendants(r)])];
  const depth0 = numberDepth(rule.number);
  const body = (r: RuleRecord): Html => {
    const level = numberDepth(r.number) - depth0;
    const examples = kb
      .examples(r)
      .map((x, i) => html`<p class="example"><span class="label">Example:</span> ${linker.text(x, r.exampleIds[i]!, undefined, r.number)}</p>`);
    let head: Html | null;
    if (r === rule) head = isTitle(r) ? null : html`<p>${linker.text(r.text, r.textId, undefined, r.number)}</p>`;
    else if (r.kind !== 'subrule' && isTitle(r))
      head = html`<h2><a class="num" href="#${r.number}">${r.number}</a> ${linker.text(r.text, r.textId, undefined, r.number)}</h2>`;
    else head = html`<p><a class="num" href="#${r.number}">${r.number}</a> ${linker.text(r.text, r.textId, undefined, r.number)}</p>`;
    return html`<div class="rule level-${level}" id="${r.number}">${head}${examples}</div>\n`;
  };
  const ancestors = kb.ancestors(rule).reverse();
  const { previous, next } = kb.adjacent(rule);
  const parent = ancestors.at(-1);
  const nav = (where: string) => html`<nav class="prevnext ${where}" aria-label="${where === 'top' ? 'Rule to rule' : 'Previous and next rule'}">
${previous ? html`<a rel="prev" href="/cr/${e}/${previous.number}" aria-keyshortcuts="p">← ${previous.number}</a>` : html`<span></span>`}
${where === 'top' && parent ? html`<a rel="up" href="${rulePath(arg, parent.number)}" aria-keyshortcuts="u">↑ ${parent.number}</a>` : null}
${next ? html`<a rel="next" href="/cr/${e}/${next.number}" aria-keyshortcuts="n">${next.number} →</a>` : html`<span></span>`}
</nav>`;
  // a long section (702 Keyword Abilities, 701 Keyword Actions): its rules' titles first, as an index
  const children = numberLevel(rule.number) === 'section' ? kb.children(rule) : [];
  const index =
    children.length > LONG_SECTION
      ? html`<nav class="index" aria-labelledby="index-h"><h2 id="index-h">In ${rule.number}</h2><ul class="columns">${children.map(
          (c) => html`<li><a href="#${c.number}">${c.number}${isTitle(c) ? ` ${c.text}` : ''}</a></li>`,
        )}</ul></nav>`
      : null;
  const main = html`<nav class="crumbs" aria-label="Breadcrumb"><ol>
<li><a href="/cr/${e}">${editionLabel(edition)}</a></li>
${ancestors.map((a) => html`<li><a href="${rulePath(arg, a.number)}">${a.number}${a.text.length <= TITLE_MAX ? ` ${a.text}` : ''}</a></li>`)}
<li aria-current="page">${rule.number}</li>
</ol></nav>
${nav('top')}
<article class="rule-page">
<h1>${heading(rule)}</h1>${
    same.length
      ? html`
<p class="note">The ${edition.effectiveDate} edition prints ${rule.number} ${same.length === 1 ? 'twice' : `${same.length + 1} times`}: each is shown.</p>`
      : null
  }
${newestPlaceNote(kb, edition, rule)}
${index}
${rules.map(body)}
</article>
${nav('bottom')}
<p class="keys">Keys: <kbd>p</kbd> previous rule, <kbd>n</kbd> next rule, <kbd>u</kbd> the rule above.</p>
<ul class="links">
<li><a href="/history/${rule.number}?edition=${e}">History of ${rule.number} across editions</a></li>
<li><a href="/cr?number=${rule.number}">${rule.number} in other editions</a></li>
</ul>
${linker.definitions()}`;
  return {
    title: `${heading(rule)} (CR ${edition.effectiveDate})`,
    canonical: `/cr/${edition.effectiveDate}/${rule.number}`,
    description: `${rule.number}: ${rule.text.slice(0, 150)}`,
    main,
    edition: arg,
  };
}

/** The editions in which a number appears, newest first, each a link to it (GET /cr?number=…). */
export function ruleEditionsPage(kb: KnowledgeBase, number: string): PageSpec {
  const eds = kb.editionsWithNumber(number).reverse();
  const main = html`<h1>Rule ${number} in every edition</h1>
<p>${eds.length === 0 ? `No edition has a rule ${number}.` : `${eds.length} editions have a rule numbered ${number}. A number can name different rules over the years: its `}${eds.length ? html`<a href="/history/${number}">history</a> follows the rule itself across renumbering.` : null}</p>
<ul class="columns">${eds.map((x) => html`<li><a href="${rulePath(x.effectiveDate, number)}">${editionLabel(x)}</a></li>`)}</ul>`;
  return { title: `Rule ${number} in every edition`, main };
}
