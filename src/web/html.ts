import { escapeHtml } from '../core/escapeHtml.js';
import { italicRuns } from '../core/italics.js';

/** Markup that is safe to output as is: built by `html`, never from raw user text. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What a template may interpolate: text (escaped), markup, numbers, lists of those; null/undefined/false print nothing. */
export type Part = Html | string | number | null | undefined | false | readonly Part[];

function append(out: string[], p: Part): void {
  if (p === null || p === undefined || p === false) return;
  if (p instanceof Html) out.push(p.value);
  else if (typeof p === 'string') out.push(escapeHtml(p));
  else if (typeof p === 'number') out.push(String(p));
  else for (const x of p) append(out, x);
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes every interpolated string; Html values pass through. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  const out: string[] = [strings[0]!];
  for (let i = 0; i < parts.length; i++) {
    append(out, parts[i]);
    out.push(strings[i + 1]!);
  }
  return new Html(out.join(''));
}

/** Markup from a trusted string (output of our own escaping, e.g. search snippets). */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** Text with the source's underscore italics (_Magic_) as emphasis, the rest escaped. */
export function emphasized(text: string): Html {
  if (!text.includes('_')) return new Html(escapeHtml(text));
  return html`${italicRuns(text).map((r) => (r.italic ? html`<em>${r.text}</em>` : r.text))}`;
}
