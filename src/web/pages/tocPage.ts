import type { EditionInfo } from '../../core/records.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { html, trusted, type Html } from '../html.js';
import { editionLabel, type PageSpec } from '../layout.js';

// Each official edition's option, unselected and selected, made once per knowledge base (its editions never
// change): a diff page lists every edition twice, some 500 with the tournament documents' growth in mind.
const OPTIONS = new WeakMap<KnowledgeBase, Array<{ id: number; plain: string; selected: string }>>();

/** The official editions as options of a select, newest first. */
export function editionOptions(kb: KnowledgeBase, selected: EditionInfo | null): Html {
  let options = OPTIONS.get(kb);
  if (!options) {
    options = kb
      .officialEditions('cr')
      .reverse()
      .map((e) => ({
        id: e.id,
        plain: html`<option value="${e.effectiveDate}">${editionLabel(e)}</option>`.value,
        selected: html`<option value="${e.effectiveDate}" selected>${editionLabel(e)}</option>`.value,
      }));
    OPTIONS.set(kb, options);
  }
  let out = '';
  for (const o of options) out += o.id === selected?.id ? o.selected : o.plain;
  return trusted(out);
}

/** The edition picker: a form that opens an edition (GET /cr?edition=…), optionally at a rule number. */
function editionPicker(kb: KnowledgeBase, selected: EditionInfo | null, number?: string): Html {
  return html`<form class="picker" method="get" action="/cr">
<label for="pick-edition">Edition</label>
<select id="pick-edition" name="edition">${editionOptions(kb, selected)}</select>
${number ? html`<input type="hidden" name="number" value="${number}">` : null}
<button type="submit">Open</button>
</form>`;
}

/** An edition's table of contents: parts and their sections, the edition picker and a search box. */
export function tocPage(kb: KnowledgeBase, edition: EditionInfo, arg: string, home: boolean): PageSpec {
  const parts = kb.parts(edition.id);
  const sections = kb.sections(edition.id);
  const e = encodeURIComponent(arg);
  const official = kb.editions().filter((x) => x.family === edition.family && x.official);
  const previous = official[official.findIndex((x) => x.id === edition.id) - 1];
  const changed = previous
    ? html`<p class="what-changed"><a href="/diff/${previous.effectiveDate}/${edition.effectiveDate}">What changed in this edition</a> (since ${previous.effectiveDate}) · <a href="/diff">every release</a></p>`
    : null;
  const partSections = (p: string) => sections.filter((s) => s.number.startsWith(p) && s.number.length === 3);
  const main = html`<h1>${home ? 'Magic: The Gathering Comprehensive Rules' : `Comprehensive Rules, ${editionLabel(edition)}`}</h1>
<p class="lede">${home ? html`The latest edition, effective ${edition.effectiveDate}. Every edition since 1999 is here: pick one, search, or see <a href="/diff">what changed</a>.` : html`Effective ${edition.effectiveDate}. <a href="/cr/latest">Latest edition</a>.`}</p>
${changed}
<div class="tools">
${editionPicker(kb, edition)}
<form class="picker" method="get" action="/search" role="search">
<label for="toc-q">Search this edition</label>
<input id="toc-q" type="search" name="q" autocomplete="off">
<input type="hidden" name="edition" value="${arg}">
<button type="submit">Search</button>
</form>
</div>
<nav aria-labelledby="toc-h" class="toc">
<h2 id="toc-h">Contents</h2>
<ol class="parts">${parts.map(
    (p) =>
      html`<li id="part-${p.number}"><h3>${p.number}. ${p.title}</h3><ol class="sections">${partSections(p.number).map(
        (s) => html`<li><a href="/cr/${e}/${s.number}"><span class="num">${s.number}</span> ${s.title}</a></li>`,
      )}</ol></li>`,
  )}</ol>
<p><a href="/cr/${e}/glossary">Glossary</a> (${kb.glossary(edition.id).length} terms)</p>
</nav>`;
  return {
    title: home ? 'Comprehensive Rules' : `Comprehensive Rules ${edition.effectiveDate}`,
    canonical: home ? '/' : `/cr/${edition.effectiveDate}`,
    description: `Table of contents of the Magic: The Gathering Comprehensive Rules effective ${edition.effectiveDate}.`,
    main,
    edition: arg,
  };
}
