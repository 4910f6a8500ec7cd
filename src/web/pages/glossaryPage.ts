import type { EditionInfo } from '../../core/records.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { html } from '../html.js';
import { editionLabel, type PageSpec } from '../layout.js';
import { RuleLinker, termId } from '../RuleLinker.js';

/** An edition's glossary: every term with its definition, references linked, each term anchored. */
export function glossaryPage(kb: KnowledgeBase, edition: EditionInfo, arg: string): PageSpec {
  const linker = new RuleLinker(kb, edition.id, arg);
  const main = html`<nav class="crumbs" aria-label="Breadcrumb"><ol><li><a href="/cr/${encodeURIComponent(arg)}">${editionLabel(edition)}</a></li><li aria-current="page">Glossary</li></ol></nav>
<h1>Glossary</h1>
<dl class="glossary">${kb
    .glossary(edition.id)
    .map((g) => html`<div id="${termId(g.term)}"><dt>${g.term}</dt><dd>${linker.textNoTerms(g.definition, g.textId)}</dd></div>`)}</dl>`;
  return { title: `Glossary (CR ${edition.effectiveDate})`, canonical: `/cr/${edition.effectiveDate}/glossary`, main, edition: arg };
}
