import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import { releaseList } from '../../query/releaseList.js';
import { html } from '../html.js';
import { type PageSpec } from '../layout.js';
import { diffPickers } from './diffPage.js';

/** Every release, newest first: the two editions, the set, how many rules changed, each a link to its diff (GET /diff). */
export function diffIndexPage(kb: KnowledgeBase): PageSpec {
  const releases = releaseList(kb).reverse();
  const rows = releases.map(
    (r) =>
      html`<tr><th scope="row"><a href="/diff/${r.from.effectiveDate}/${r.to.effectiveDate}">${r.to.effectiveDate}</a></th><td>${r.to.setName ?? ''}${r.to.setCode ? ` (${r.to.setCode})` : ''}</td><td>${r.from.effectiveDate}</td><td class="n">${r.added + r.removed + r.changed}</td><td class="n">${r.added}</td><td class="n">${r.removed}</td><td class="n">${r.renumbered}</td></tr>`,
  );
  const main = html`<h1>What changed, release by release</h1>
<p class="lede">${releases.length} releases of the Comprehensive Rules, newest first. Each opens the release notes against the edition before; or compare any two editions:</p>
${diffPickers(kb, releases[0]?.from ?? null, releases[0]?.to ?? null, null)}
<div class="table-wrap"><table class="releases">
<caption>Releases and the rules each touched (changed counts every rule whose text, number or examples differ)</caption>
<thead><tr><th scope="col">Edition</th><th scope="col">Set</th><th scope="col">Since</th><th scope="col">Changed</th><th scope="col">Added</th><th scope="col">Removed</th><th scope="col">Renumbered</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  return {
    title: 'What changed: every release',
    canonical: '/diff',
    description: `Release notes of ${releases.length} editions of the Comprehensive Rules.`,
    main,
  };
}
