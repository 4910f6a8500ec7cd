import type { EditionInfo, GlossaryRecord, TextRefRecord } from '../core/records.js';
import { refTarget } from '../core/policyReferences.js';
import { isPolicyFamily } from '../core/policyUnit.js';
import { numberLevel, parentNumber } from '../core/ruleNumber.js';
import type { KnowledgeBase } from '../query/KnowledgeBase.js';
import { emphasized, html, type Html } from './html.js';

/** Path of a rule page: a subrule opens its rule's page at its anchor (the rule around it gives context). */
export function rulePath(edition: string, number: string): string {
  const e = encodeURIComponent(edition);
  const level = numberLevel(number);
  if (level === 'part') return `/cr/${e}#part-${number}`;
  return level === 'subrule' ? `/cr/${e}/${parentNumber(number)!}#${number}` : `/cr/${e}/${number}`;
}

/** The id of a glossary term's definition on a page. */
export function termId(term: string): string {
  return `g-${term
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

/**
 * Renders texts of one edition for reading: every reference a link to the cited rule in the same
 * edition (`edition` is the URL's edition argument), glossary terms (at their first use on the
 * page) links to their definition, shown as a tooltip by the page script. Collects the entries it linked.
 */
/** The page of a reference's target in another document's edition: "/ipg/2021-02-05/2.1", "/cr/2021-06-18/704.3". */
export function refPath(edition: EditionInfo, number: string): string {
  return isPolicyFamily(edition.family)
    ? `/${edition.family}/${encodeURIComponent(edition.effectiveDate)}/${encodeURIComponent(number)}`
    : rulePath(edition.effectiveDate, number);
}

export class RuleLinker {
  readonly used = new Map<string, GlossaryRecord>();

  constructor(
    private readonly kb: KnowledgeBase,
    private readonly editionId: number,
    private readonly edition: string,
  ) {}

  /** A text with its references (stored, by text id) and glossary terms linked; `where` is the rule the text is of (a term's sense may depend on it). */
  text(text: string, textId: number, skip?: GlossaryRecord, where?: string): Html {
    const refs = this.kb.refsOfTexts([textId]).get(textId) ?? [];
    const spans: Array<{ start: number; end: number; ref?: TextRefRecord; term?: GlossaryRecord }> = [];
    let last = -1;
    for (const r of refs) {
      if (r.start < last || r.end > text.length) continue;
      spans.push({ start: r.start, end: r.end, ref: r });
      last = r.end;
    }
    for (const m of this.kb.glossaryMentions(this.editionId, text, skip, where)) {
      // each term is linked once a page, where it is first used: more would bury the text in underlines
      if (this.used.has(m.entry.term)) continue;
      if (spans.some((s) => s.start < m.end && m.start < s.end)) continue;
      spans.push({ start: m.start, end: m.end, term: m.entry });
    }
    spans.sort((a, b) => a.start - b.start);
    const out: Array<Html | string> = [];
    let at = 0;
    for (const s of spans) {
      out.push(emphasized(text.slice(at, s.start)));
      const words = text.slice(s.start, s.end);
      if (s.ref) out.push(this.refLink(s.ref, words));
      else {
        const g = s.term!;
        this.used.set(g.term, g);
        out.push(html`<a class="term" href="#${termId(g.term)}" data-term="${termId(g.term)}">${words}</a>`);
      }
      at = s.end;
    }
    out.push(emphasized(text.slice(at)));
    return html`${out}`;
  }

  private refLink(r: TextRefRecord, words: string): Html {
    const place = this.kb.refPlace(this.editionId, r.target);
    if (!place || !this.kb.refExists(this.editionId, r)) {
      return html`<span class="dangling" title="${`rule ${refTarget(r.target).number} is not in this edition`}">${words}</span>`;
    }
    if (place.edition.id !== this.editionId) return html`<a class="ref" href="${refPath(place.edition, place.number)}">${words}</a>`;
    return html`<a class="ref" href="${rulePath(this.edition, r.target)}">${words}</a>`;
  }

  /** The definitions of the glossary terms linked so far, for the page's glossary box (and the tooltips). */
  definitions(): Html {
    if (this.used.size === 0) return html``;
    const entries = [...this.used.values()].sort((a, b) => a.ord - b.ord);
    const defs = new RuleLinker(this.kb, this.editionId, this.edition);
    return html`<aside class="glossary-used" aria-labelledby="glossary-used-h"><h2 id="glossary-used-h">Glossary terms on this page</h2><dl>${entries.map(
      (g) => html`<div id="${termId(g.term)}"><dt>${g.term}</dt><dd>${defs.textNoTerms(g.definition, g.textId)}</dd></div>`,
    )}</dl></aside>`;
  }

  /** A text with references linked, no glossary terms (definitions shown in tooltips). */
  textNoTerms(text: string, textId: number): Html {
    const refs = this.kb.refsOfTexts([textId]).get(textId) ?? [];
    const out: Array<Html | string> = [];
    let at = 0;
    for (const r of refs) {
      if (r.start < at || r.end > text.length) continue;
      out.push(emphasized(text.slice(at, r.start)), this.refLink(r, text.slice(r.start, r.end)));
      at = r.end;
    }
    out.push(emphasized(text.slice(at)));
    return html`${out}`;
  }
}
