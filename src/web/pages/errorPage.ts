import type { QueryError } from '../../query/QueryError.js';
import { html } from '../html.js';
import type { PageSpec } from '../layout.js';

/** A page for a query error: what is wrong (naming the argument), and links to what the reader may have meant. */
export function errorPage(e: QueryError, suggestionPath: (s: string) => string): PageSpec {
  const title = e.code === 'NOT_FOUND' ? 'Not found' : 'Bad request';
  const s = e.details.suggestions ?? [];
  const main = html`<h1>${title}</h1>
<p class="error">${e.message.charAt(0).toUpperCase() + e.message.slice(1)}${e.details.argument ? ` (${e.details.argument})` : ''}.</p>
${s.length ? html`<p>Did you mean: ${s.map((x, i) => html`${i ? ', ' : ''}<a href="${suggestionPath(x)}">${x}</a>`)}?</p>` : null}
<p><a href="/">Table of contents</a> · <a href="/search">Search</a></p>`;
  return { title, main };
}

/** A page saying why a request was not answered now (busy, too long), with a way back. */
export function messagePage(title: string, message: string): PageSpec {
  const main = html`<h1>${title}</h1>
<p class="error">${message.charAt(0).toUpperCase() + message.slice(1)}.</p>
<p><a href="/">Table of contents</a> · <a href="/search">Search</a></p>`;
  return { title, main };
}
