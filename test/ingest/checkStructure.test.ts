import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { FINDING_CODES } from '../../ingest/parse/checkStructure.js';
import { parseCrText } from '../../ingest/parse/parseCrText.js';
import type { ParsedDocument } from '../../src/core/types.js';

const CORPUS = path.resolve(process.cwd(), '../shared/corpus');

const findings = (doc: ParsedDocument): string[] => doc.warnings.filter((w) => FINDING_CODES.has(w.code)).map((w) => `${w.line ?? '-'} ${w.code}`);

/** A one-rule-per-line edition (the post-2009 layout) from its body lines. */
function edition(body: string[], glossary: string[] = ['Ability', 'Text on an object.']): string {
  // long lines, one paragraph each: not a hard-wrapped edition
  const filler =
    'This rule has a long text, as the rules printed one paragraph to a line do, so that the edition does not look hard-wrapped at all to the parser reading it.';
  const rules = Array.from({ length: 25 }, (_, k) => [`100.${k + 3}. ${filler}`, '']).flat();
  return [
    'Magic: The Gathering Comprehensive Rules',
    '',
    'These rules are effective as of June 1, 2020.',
    '',
    '1. Game Concepts',
    '',
    '100. General',
    '',
    '100.1. These Magic rules apply to any Magic game with two or more players.',
    '',
    '100.2. To play, each player needs their own deck.',
    '',
    ...rules,
    ...body,
    '',
    'Glossary',
    '',
    ...glossary,
    '',
    'Credits',
    '',
    'Someone',
    '',
  ].join('\n');
}

test('a clean edition has no findings', () => {
  assert.deepEqual(findings(parseCrText(edition(['101. Starting the Game', '', '101.1. At the start of a game, shuffle.']))), []);
});

test('a heading the parser could not take, stored as rule text, is a finding at its line', () => {
  // "101." after section 102 is not accepted as a heading: it lands in 102.1's text
  const text = edition(['102. Later', '', '102.1. A rule.', '101. Earlier Heading', '101.1. Its rule.']);
  const doc = parseCrText(text);
  const line = text.split('\n').indexOf('101. Earlier Heading') + 1;
  assert.ok(findings(doc).includes(`${line} swallowed-rule`), findings(doc).join(', '));
});

test('a definition holding a line shaped like a glossary term is a finding', () => {
  const text = edition(['101. Starting the Game', '', '101.1. At the start of a game, shuffle.'], ['Ability', 'Text on an object, see', 'Ante', 'A zone.']);
  const doc = parseCrText(text);
  assert.ok(
    findings(doc).some((f) => f.endsWith('swallowed-term')),
    findings(doc).join(', '),
  );
});

test('a rule whose parent is missing and a section counter that jumps are findings', () => {
  const text = edition(['103. Jumped', '', '103.1. A rule.', '', '103.5a A subrule of nothing.']);
  const doc = parseCrText(text);
  const lines = text.split('\n');
  assert.ok(findings(doc).includes(`${lines.indexOf('103. Jumped') + 1} section-jump`), findings(doc).join(', '));
  assert.ok(findings(doc).includes(`${lines.indexOf('103.5a A subrule of nothing.') + 1} missing-parent`), findings(doc).join(', '));
});

test('characters of a layout the parser does not know are findings', () => {
  const doc = parseCrText(edition(['101. Starting the Game', '', '101.1. At the start\u200b of a game, shuffle.']));
  assert.ok(findings(doc).some((f) => f.endsWith('odd-character')));
});

test('Unicode line and paragraph separators, NEL, bare CR and non-breaking-space blank lines and indentation parse like LF', () => {
  const bytes = fs.readFileSync(path.join(CORPUS, 'rulesraker/2022-09-08.txt'));
  const original = decodeBuffer(bytes).text;
  const base = parseCrText(original);
  assert.deepEqual(findings(base), []);
  const lines = original.split('\n');
  const layouts: Record<string, string> = {
    'U+2028': lines.join('\u2028'),
    'U+2029': lines.join('\u2029'),
    NEL: lines.join('\u0085'),
    'bare CR': lines.join('\r'),
    'NBSP blank lines and indentation': lines
      .map((l) => (l.trim() === '' ? '\u00a0\u00a0' : /^\d{3}\.\d+[a-z] /.test(l) ? `\u00a0\u00a0${l}` : l))
      .join('\r\n'),
  };
  for (const [name, text] of Object.entries(layouts)) {
    const decoded = decodeBuffer(Buffer.from(text, 'utf8'));
    const doc = parseCrText(decoded.text);
    assert.deepEqual(findings(doc), [], name);
    assert.equal(doc.accounting.unaccounted.length, 0, name);
    assert.deepEqual(
      doc.rules.map((r) => [r.number, r.text, r.examples]),
      base.rules.map((r) => [r.number, r.text, r.examples]),
      name,
    );
    assert.deepEqual(
      doc.glossary.map((g) => [g.term, g.definition]),
      base.glossary.map((g) => [g.term, g.definition]),
      name,
    );
  }
});
