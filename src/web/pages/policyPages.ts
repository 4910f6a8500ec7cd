import type { EditionInfo, Family, RuleRecord, TextRefRecord } from '../../core/records.js';
import { refPath } from '../RuleLinker.js';
import { familyLabel, numberingNote } from '../../core/policyUnit.js';
import { capitalize, historyStepWords } from '../../query/chatText.js';
import type { EditionDiff, KnowledgeBase, RuleHistoryAnswer } from '../../query/KnowledgeBase.js';
import { emphasized, html, type Html } from '../html.js';
import type { PageSpec } from '../layout.js';
import { inlineSegments } from './diffPage.js';

const NAMES = new Map<Family, string>([
  ['mtr', 'Magic: The Gathering Tournament Rules'],
  ['ipg', 'Magic Infraction Procedure Guide'],
  ['jar', 'Judging at Regular Rules Enforcement Level'],
]);

// the switch's documents, in its order
const SWITCH: ReadonlyArray<readonly [Family, string]> = [
  ['cr', 'Comprehensive Rules'],
  ['mtr', 'Tournament Rules (MTR)'],
  ['ipg', 'Infraction Procedure Guide (IPG)'],
  ['jar', 'Judging at Regular REL (JAR)'],
];

/** The path of a tournament document's unit in an edition: "/ipg/2021-02-05/2.1". */
export function unitPath(family: Family, edition: string, number: string): string {
  return `/${family}/${encodeURIComponent(edition)}/${encodeURIComponent(number)}`;
}

/** The switch between documents: the CR, the MTR, the IPG and the JAR, the current one marked; under it, what the numbers are when they are crkb's. */
function documentSwitch(current: Family): Html {
  const link = (f: Family, label: string) =>
    f === current ? html`<li aria-current="page"><strong>${label}</strong></li>` : html`<li><a href="/${f}/latest">${label}</a></li>`;
  const note = numberingNote(current);
  return html`<nav class="documents" aria-label="Documents"><ul>${SWITCH.map(([f, label]) => link(f, label))}</ul></nav>${note ? html`<p class="numbering-note">${note}</p>` : null}`;
}

/** The editions of a family as a picker (newest first) that opens one. */
function editionPicker(kb: KnowledgeBase, family: Family, selected: EditionInfo | null, name = 'edition'): Html {
  const editions = kb.officialEditions(family).reverse();
  return html`<select name="${name}" aria-label="${name}">${editions.map(
    (e) => html`<option value="${e.effectiveDate}"${e.id === selected?.id ? html` selected` : null}>${e.effectiveDate}</option>`,
  )}</select>`;
}

/** A unit's heading and body as HTML: the title (and penalty), each paragraph with its references linked, its examples. */
function unitBlock(kb: KnowledgeBase, rule: RuleRecord): Html {
  const u = kb.unit(rule)!;
  const paragraphs = u.body === '' ? [] : u.body.split('\n');
  const refs = kb.refsOfTexts([rule.textId]).get(rule.textId) ?? [];
  let at = rule.text.length - u.body.length;
  const linked = paragraphs.map((p) => {
    const start = at;
    at += p.length + 1;
    return html`<p>${linkRefs(kb, rule.editionId, p, start, refs)}</p>`;
  });
  return html`<p class="unit-penalty">${u.penalty ? html`Penalty: <strong>${u.penalty}</strong>` : null}</p>
${linked}
${kb.examples(rule).map((e) => html`<p class="example">${emphasized(e)}</p>`)}`;
}

/** A paragraph (at `offset` in its unit's text) with the references inside it linked to their targets, in this or another document. */
function linkRefs(kb: KnowledgeBase, editionId: number, text: string, offset: number, refs: readonly TextRefRecord[]): Html {
  const out: Array<Html | string> = [];
  let at = 0;
  for (const r of refs) {
    const s = r.start - offset;
    const e = r.end - offset;
    if (s < at || e > text.length) continue;
    const place = kb.refPlace(editionId, r.target);
    if (!place || !kb.refExists(editionId, r)) continue;
    out.push(emphasized(text.slice(at, s)), html`<a class="ref" href="${refPath(place.edition, place.number)}">${text.slice(s, e)}</a>`);
    at = e;
  }
  out.push(emphasized(text.slice(at)));
  return html`${out}`;
}

/** The sections of this edition, and of the other documents then in force, citing a unit. */
function citedBy(kb: KnowledgeBase, rule: RuleRecord): Html | null {
  const all = [...(kb.citing(rule.editionId, [rule.number]).get(rule.number) ?? []), ...kb.citingElsewhere(rule)];
  if (all.length === 0) return null;
  return html`<p class="cited-by">Cited by ${all.map((r, k) => {
    const e = kb.editionById(r.editionId)!;
    return html`${k > 0 ? ', ' : ''}<a href="${refPath(e, r.number)}">${familyLabel(e.family)} ${r.number}</a>`;
  })}.</p>`;
}

/** A tournament document's edition: its sections and appendices, the edition picker and the document switch. */
export function policyTocPage(kb: KnowledgeBase, edition: EditionInfo, arg: string): PageSpec {
  const f = edition.family;
  const rules = kb.rulesPage(edition.id, { limit: 2000 });
  const official = kb.editions().filter((x) => x.family === f && x.official);
  const previous = official[official.findIndex((x) => x.id === edition.id) - 1];
  const main = html`${documentSwitch(f)}
<h1>${NAMES.get(f) ?? familyLabel(f)}, ${edition.effectiveDate}</h1>
<p class="lede">Effective ${edition.effectiveDate}${edition.title ? html` (“${edition.title}”)` : null}. ${official.length} editions stored, ${official[0]?.effectiveDate ?? ''} to ${official.at(-1)?.effectiveDate ?? ''}.</p>
${previous ? html`<p class="what-changed"><a href="/${f}/diff/${previous.effectiveDate}/${edition.effectiveDate}">What changed in this edition</a> (since ${previous.effectiveDate})</p>` : null}
<form class="picker" method="get" action="/${f}"><label>Edition ${editionPicker(kb, f, edition)}</label><button type="submit">Open</button></form>
<nav class="toc" aria-labelledby="toc-h"><h2 id="toc-h">Contents</h2><ol class="sections">${rules.map((r) => {
    const u = kb.unit(r)!;
    return html`<li class="${r.kind}"><a href="${unitPath(f, arg, r.number)}"><span class="num">${r.number}</span> ${u.title}</a></li>`;
  })}</ol></nav>`;
  return { title: `${familyLabel(f)} ${edition.effectiveDate}`, canonical: `/${f}/${edition.effectiveDate}`, main, edition: arg };
}

/** One unit of a tournament document (IPG 2.1, MTR 4.2): heading, penalty, text, examples; links to its history and the units beside it. */
export function policyUnitPage(kb: KnowledgeBase, edition: EditionInfo, arg: string, rule: RuleRecord): PageSpec {
  const f = edition.family;
  const u = kb.unit(rule)!;
  const { previous, next } = kb.adjacent(rule);
  const children = kb.children(rule);
  const main = html`${documentSwitch(f)}
<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="/${f}/${encodeURIComponent(arg)}">${familyLabel(f)} ${edition.effectiveDate}</a></li><li aria-current="page">${rule.number}</li></ol></nav>
<article class="unit"><h1><span class="num">${rule.number}</span> ${u.title}</h1>
${unitBlock(kb, rule)}
${citedBy(kb, rule)}
${children.length ? html`<ol class="sections">${children.map((c) => html`<li><a href="${unitPath(f, arg, c.number)}"><span class="num">${c.number}</span> ${kb.unit(c)!.title}</a></li>`)}</ol>` : null}
</article>
<p class="unit-links"><a href="/${f}/history/${encodeURIComponent(rule.number)}?edition=${encodeURIComponent(edition.effectiveDate)}">History of ${rule.number}</a>${
    previous ? html` · <a rel="prev" href="${unitPath(f, arg, previous.number)}">← ${previous.number}</a>` : null
  }${next ? html` · <a rel="next" href="${unitPath(f, arg, next.number)}">${next.number} →</a>` : null}</p>`;
  return {
    title: `${familyLabel(f)} ${rule.number} ${u.title} (${edition.effectiveDate})`,
    canonical: unitPath(f, edition.effectiveDate, rule.number),
    main,
    edition: arg,
  };
}

/** What changed in a tournament document between two editions: counts and each changed unit, word by word. */
export function policyDiffPage(kb: KnowledgeBase, from: EditionInfo, to: EditionInfo, d: EditionDiff): PageSpec {
  const f = to.family;
  const c = d.counts;
  const main = html`${documentSwitch(f)}
<h1>${familyLabel(f)}: ${from.effectiveDate} → ${to.effectiveDate}</h1>
<form class="picker" method="get" action="/${f}/diff"><label>From ${editionPicker(kb, f, from, 'from')}</label> <label>To ${editionPicker(kb, f, to, 'to')}</label><button type="submit">Compare</button></form>
<p class="counts">${c.total} changes: ${c.added} added, ${c.removed} removed, ${c.renumbered} renumbered, ${c.substantive} reworded, ${c.references} references only, ${c.typography} typography.</p>
<ol class="changes">${d.changes.map((x) => {
    const number = x.after?.number ?? x.before!.number;
    const words = !x.before
      ? 'added'
      : !x.after
        ? 'removed'
        : `${x.renumbered ? `renumbered from ${x.before.number}` : ''}${x.renumbered && x.textChange !== 'none' ? ', ' : ''}${x.textChange !== 'none' ? x.textChange : x.renumbered ? '' : 'typography'}`;
    const body = x.segments ? inlineSegments(x.segments) : emphasized((x.after ?? x.before)!.text);
    const link = x.after ? unitPath(f, to.effectiveDate, x.after.number) : unitPath(f, from.effectiveDate, x.before!.number);
    return html`<li class="change"><h2><a href="${link}">${number}</a> <span class="what">${words}</span></h2><p class="text">${body}</p></li>`;
  })}</ol>`;
  return { title: `${familyLabel(f)} ${from.effectiveDate} → ${to.effectiveDate}`, canonical: `/${f}/diff/${from.effectiveDate}/${to.effectiveDate}`, main };
}

/** A unit's timeline across the editions of its document, followed across renumbering. */
export function policyHistoryPage(edition: EditionInfo, number: string, h: RuleHistoryAnswer): PageSpec {
  const f = edition.family;
  const main = html`${documentSwitch(f)}
<h1>History of ${familyLabel(f)} ${number}</h1>
<p class="lede">${familyLabel(f)} ${number} of ${edition.effectiveDate}, followed across renumbering: ${h.steps.length} editions from ${h.first} to ${h.last}${h.numbers.length > 1 ? `, under the numbers ${h.numbers.join(', ')}` : ''}.</p>
<ol class="timeline">${h.steps.map((s, i) => {
    const prev = h.steps[i - 1];
    const text = s.segments && s.change === 'changed' ? inlineSegments(s.segments) : emphasized(s.text);
    return html`<li class="step ${s.change}"><h2><a href="${unitPath(f, s.date, s.number)}">${s.date}</a> <span class="num">${s.number}</span></h2><p class="what">${capitalize(historyStepWords(s))}${
      prev && s.change !== 'unchanged' ? html` · <a href="/${f}/diff/${prev.date}/${s.date}">diff</a>` : null
    }</p>${s.change === 'unchanged' ? null : html`<p class="text">${text}</p>`}</li>`;
  })}</ol>`;
  return { title: `History of ${familyLabel(f)} ${number}`, main };
}
