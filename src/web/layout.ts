import type { EditionInfo } from '../core/records.js';
import type { KnownEdition, StaleData } from '../query/knownEditions.js';
import type { Assets } from './Assets.js';
import { html, type Html, type Part } from './html.js';

/** What every page needs from the server: asset URLs and the configured public URL. */
export interface PageContext {
  assets: Assets;
  publicUrl: string;
  /** The database lacks editions the manifest knows (said on every page), or null. */
  stale?: StaleData | null;
}

/** One page: its title, the canonical path (for bots), and the main content. */
export interface PageSpec {
  title: string;
  /** Path of the page's canonical URL ("/cr/2022-11-18/702.19"), joined to the public URL. */
  canonical?: string;
  description?: string;
  main: Html;
  /** Search box value in the header. */
  query?: string;
  /** Edition the header search box searches. */
  edition?: string;
}

/** An edition as people name it: "2022-11-18 — Dominaria United (DMU)". */
export function editionLabel(e: EditionInfo): string {
  const set = e.setName ? ` — ${e.setName}${e.setCode ? ` (${e.setCode})` : ''}` : e.setCode ? ` — ${e.setCode}` : '';
  return `${e.effectiveDate}${set}`;
}

const knownLabel = (k: KnownEdition): string =>
  `${k.effectiveDate}${k.setName ? ` — ${k.setName}${k.setCode ? ` (${k.setCode})` : ''}` : k.setCode ? ` — ${k.setCode}` : ''}`;

/** The notice of a database behind the manifest: the newest known edition, that it is not stored, how to get it. */
function staleNotice(s: StaleData): Html {
  return html`<div class="stale" role="note"><p><strong>Newer rules exist.</strong> The newest edition known is ${knownLabel(s.newestKnown)}; it is not stored here (${s.missing} edition${s.missing > 1 ? 's' : ''} after ${editionLabel(s.newestStored)}, the newest stored). Run <code>crkb update</code> to get ${s.missing > 1 ? 'them' : 'it'}.</p>${
    s.inForce ? html`<p>The edition in force on the date asked for was ${knownLabel(s.inForce)}, which is not stored: this page shows an older one.</p>` : null
  }</div>`;
}

/** A whole HTML document: header with search, the page's main content, footer. */
export function layout(ctx: PageContext, page: PageSpec): string {
  const canonical: Part = page.canonical ? html`<link rel="canonical" href="${ctx.publicUrl + page.canonical}">` : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${page.title} · crkb</title>
${page.description ? html`<meta name="description" content="${page.description}">` : null}
${canonical}
<link rel="stylesheet" href="${ctx.assets.url('site.css')}">
<script src="${ctx.assets.url('app.js')}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<nav aria-label="Site">
<a class="brand" href="/">crkb</a>
<a href="/cr/latest">Rules</a>
<a href="/diff">What changed</a>
<a href="/graphql">GraphQL</a>
</nav>
<form class="search" role="search" method="get" action="/search">
<label for="site-q" class="visually-hidden">Search the rules</label>
<input id="site-q" type="search" name="q" value="${page.query ?? ''}" placeholder="Search the rules" autocomplete="off">
${page.edition ? html`<input type="hidden" name="edition" value="${page.edition}">` : null}
<button type="submit">Search</button>
</form>
</header>
<main id="main" tabindex="-1">
${ctx.stale ? staleNotice(ctx.stale) : null}
${page.main}
</main>
<footer class="site"><p>Magic: The Gathering Comprehensive Rules, every edition since 1999, from <a href="/">crkb</a>. Rules text © Wizards of the Coast.</p></footer>
</body>
</html>
`.value;
}
