import { capitalize } from '../../query/chatText.js';
import { QueryError } from '../../query/QueryError.js';
import { html } from '../html.js';
import type { PageSpec } from '../layout.js';

/** The web's error page: what is wrong (naming the argument), links to what the reader may have meant, a way back. */
export function errorPage(e: QueryError | { title: string; message: string }, suggestionPath: (s: string) => string = (s) => s): PageSpec {
  const q = e instanceof QueryError ? e : null;
  const title = 'title' in e ? e.title : e.code === 'NOT_FOUND' ? 'Not found' : 'Bad request';
  const s = q?.details.suggestions ?? [];
  const main = html`<h1>${title}</h1>
<p class="error">${capitalize(e.message)}${q?.details.argument ? ` (${q.details.argument})` : ''}.</p>
${s.length ? html`<p>Did you mean: ${s.map((x, i) => html`${i ? ', ' : ''}<a href="${suggestionPath(x)}">${x}</a>`)}?</p>` : null}
<p><a href="/">Table of contents</a> · <a href="/search">Search</a></p>`;
  return { title, main };
}
