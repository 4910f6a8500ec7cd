import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseJar } from '../../ingest/parse/parseJar.js';
import { policyFamilyOf } from '../../ingest/parse/parsePolicy.js';
import { detectFormat } from '../../ingest/parse/detectFormat.js';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { parseInput } from '../../ingest/store/parseInput.js';
import type { ParsedDocument } from '../../src/core/types.js';

const policy = path.resolve(process.cwd(), '..', 'shared', 'policy');
const fixtures = path.join(process.cwd(), 'test', 'fixtures', 'policy');

// a JAR of the 2014 layout, shortened: title, date, introduction, headings, issues in bold (a sentence with no full stop)
const JAR = [
  'Judging at Regular Rules Enforcement Level (REL)',
  'Updated September 26, 2014',
  'Most Magic players play for fun.',
  'Magic is a complicated game.',
  'Common Issues',
  'A player forgets a triggered ability (one that uses the words “when,” “whenever,” or “at the beginning”)',
  'These abilities are considered missed if the player did not acknowledge the ability.',
  'A player sees a card in a library that he or she shouldn’t have seen',
  'Shuffle the card seen into the unknown portion of the library. Otherwise,',
  'keep playing.',
  'General Unwanted Behaviors',
  '• Inadequate shuffling.',
  '• Tardiness.',
  'As a judge, the priority is to educate players.',
  'Resources',
  'Got questions? Try apps.magicjudges.org.',
  'Further resources are available at http://wiki.magicjudges.org/en/w/Judging_at_Regular_REL',
].join('\n');

/** The words of a parsed JAR in order: its title, date lines and each unit's title and text (crkb's "Introduction" aside). */
function wordsOf(doc: ParsedDocument, head: string[]): string[] {
  const units = doc.rules.flatMap((r) => [r.number === '0' ? '' : (r.title ?? ''), r.text]);
  return [...head, ...units].join(' ').split(/\s+/).filter(Boolean);
}

const fixture = (name: string): string[][] =>
  fs
    .readFileSync(path.join(fixtures, `${name}.tsv`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'));

test('the JAR: units numbered by position (0 the introduction, each heading 1, 2, …, each issue 1.1, 1.2, …), every word kept', () => {
  const doc = parseJar(JAR, 'policy-text');
  assert.equal(doc.family, 'jar');
  assert.equal(doc.effectiveDate, '2014-09-26');
  assert.equal(doc.title, 'Judging at Regular Rules Enforcement Level (REL)');
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.parent, r.kind, r.title]),
    [
      ['0', null, 'section', 'Introduction'],
      ['1', null, 'section', 'Common Issues'],
      ['1.1', '1', 'rule', 'A player forgets a triggered ability (one that uses the words “when,” “whenever,” or “at the beginning”)'],
      ['1.2', '1', 'rule', 'A player sees a card in a library that he or she shouldn’t have seen'],
      ['2', null, 'section', 'General Unwanted Behaviors'],
      ['3', null, 'section', 'Resources'],
    ],
  );
  // a line in lower case continues the one before (a rendition's <br>); a heading whose first paragraph ends with a full stop has no issues
  assert.equal(doc.rules[3]!.text, 'Shuffle the card seen into the unknown portion of the library. Otherwise, keep playing.');
  assert.equal(
    doc.rules[5]!.text,
    'Got questions? Try apps.magicjudges.org.\nFurther resources are available at http://wiki.magicjudges.org/en/w/Judging_at_Regular_REL',
  );
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.deepEqual(wordsOf(doc, JAR.split('\n').slice(0, 2)), JAR.split(/\s+/));
});

test('the JAR editions of the folder match their hand-checked fixtures, with no word lost (the PDF, its rendition and the 2019 rendition)', async () => {
  const files: Array<[string, string]> = [
    ['jar/2014-09-26.pdf', 'jar-2014-09-26'],
    ['jar/2014-09-26.html', 'jar-2014-09-26'],
    ['jar/2019-01-21.html', 'jar-2019-01-21'],
  ];
  for (const [rel, name] of files) {
    const file = path.join(policy, rel);
    const { doc, decoded } = await parseInput(file, fs.readFileSync(file));
    assert.equal(doc.family, 'jar', rel);
    assert.equal(doc.effectiveDate, /\d{4}-\d{2}-\d{2}/.exec(rel)![0], rel);
    assert.deepEqual(doc.accounting.unaccounted, [], rel);
    // the MTG Familiar renditions are ASCII: their quotes are straight
    const quotes = (t: string): string => (rel.endsWith('.html') ? t.replace(/[“”]/g, '"').replace(/’/g, "'") : t);
    assert.deepEqual(
      doc.rules.map((r) => [r.number, r.title]),
      fixture(name).map(([n, t]) => [n, quotes(t!)]),
      rel,
    );
    // completeness: the units' words, after the title and the date lines, are the text's words in order
    const words = decoded.text.split(/\s+/).filter(Boolean);
    const titleAndDates = words.slice(0, words.indexOf('Most'));
    assert.deepEqual(wordsOf(doc, titleAndDates), words, rel);
  }
});

test('a JAR file is read as the JAR, never as a CR fragment, an MTR or an IPG; the MTR and IPG are never read as the JAR', () => {
  for (const rel of ['jar/2014-09-26.html', 'jar/2019-01-21.html']) {
    const text = decodeBuffer(fs.readFileSync(path.join(policy, rel))).text;
    assert.equal(detectFormat(text), 'policy-html', rel);
  }
  assert.equal(detectFormat(JAR), 'policy-text');
  assert.equal(policyFamilyOf(JAR), 'jar');
  // the JAR names the IPG and the MTR in its body: the title decides
  assert.equal(policyFamilyOf(`${JAR}\nThe fixes found in the Infraction Procedure Guide …`), 'jar');
  assert.equal(policyFamilyOf('Magic: The Gathering Tournament Rules\nEffective July 23, 2021\nSee Judging at Regular REL.'), 'mtr');
  assert.equal(policyFamilyOf('Magic Infraction Procedure Guide\nEffective February 5, 2021\nJudging at Regular REL is another document.'), 'ipg');
});
