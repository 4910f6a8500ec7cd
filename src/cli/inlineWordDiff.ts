import type { DiffSegment } from '../engine/wordDiff.js';

/**
 * A word diff on one line, as `git diff --word-diff=plain` marks it: `[-removed-]{+added+}`.
 * Unchanged stretches longer than twice `context` words keep `context` words on each side of
 * a change and read "…" between.
 */
export function inlineWordDiff(segments: DiffSegment[], context = 6): string {
  const out: string[] = [];
  segments.forEach((s, k) => {
    const text = s.text.replace(/\s+/g, ' ');
    if (s.op === 'delete') out.push(`[-${text}-]`);
    else if (s.op === 'insert') out.push(`{+${text}+}`);
    else out.push(elide(text, k > 0, k < segments.length - 1, context));
  });
  return out.join('');
}

// Keeps `context` words after a preceding change and before a following one.
function elide(text: string, afterChange: boolean, beforeChange: boolean, context: number): string {
  // words with the whitespace before them; whitespace after the last word stays with it
  const words = text.match(/\s*\S+/g) ?? [];
  const trailing = text.slice(words.join('').length);
  const head = afterChange ? context : 0;
  const tail = beforeChange ? context : 0;
  if (words.length <= head + tail + 2) return text;
  const kept = [...words.slice(0, head), head > 0 ? ' …' : '…', ...words.slice(words.length - tail)];
  return kept.join('') + trailing;
}
