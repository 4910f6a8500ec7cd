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

// Pieces are joined with `+`, not Array.join: V8 links two strings without copying them (a rope, flattened once
// when the page is sent), where a join copies every nested template's text again at each level up, a long page
// (a diff's 200-800 KB) several times over, and most of its render time went to that copying and its garbage.
function append(acc: string, p: Part): string {
  if (p === null || p === undefined || p === false) return acc;
  if (p instanceof Html) return acc + p.value;
  if (typeof p === 'string') return acc + escapeHtml(p);
  if (typeof p === 'number') return acc + String(p);
  for (const x of p) acc = append(acc, x);
  return acc;
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes every interpolated string; Html values pass through. */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < parts.length; i++) out = append(out, parts[i]) + strings[i + 1]!;
  return new Html(out);
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
