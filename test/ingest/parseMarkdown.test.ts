import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { parseMarkdown } from '../../ingest/parse/parseMarkdown.js';

const seeds = path.resolve(process.cwd(), '../shared/seeds');

test('seed 000: the Markdown rendering; 700.2g cites 707.10', () => {
  const text = decodeBuffer(fs.readFileSync(path.join(seeds, '000_fd7f68269be61ced.txt'))).text;
  const doc = parseMarkdown(text);
  assert.equal(doc.format, 'markdown');
  assert.equal(doc.complete, false);
  assert.match(doc.rules.find((r) => r.number === '700.2g')!.text, /\(See rule 707\.10\.\)$/);
  // The heading and the section line name one section.
  assert.equal(doc.rules.filter((r) => r.number === '700').length, 1);
  assert.deepEqual(
    doc.parts.map((p) => [p.number, p.title]),
    [['7', 'Additional Rules']],
  );
  // Independent count of rule paragraphs: lines starting with a rule number (the heading excluded).
  const ruleLines = text.split('\n').filter((l) => /^\d{3}\.(\d+[a-z]?\.?)? /.test(l)).length;
  assert.equal(doc.rules.length, ruleLines);
  const examples = text.split('\n').filter((l) => l.startsWith('Example: ')).length;
  assert.equal(
    doc.rules.reduce((n, r) => n + r.examples.length, 0),
    examples,
  );
  assert.equal(doc.rules.find((r) => r.number === '700.1')!.examples.length, 1);
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.ok(!doc.warnings.some((w) => w.code === 'duplicate-rule'));
});

test('Markdown decoration: bold numbers, bullets, blockquoted examples, escapes, wrapped paragraphs', () => {
  const md = [
    '## 702. Keyword Abilities',
    '',
    '**702.19.** Trample',
    '',
    '- 702.19a Trample is a static ability that modifies the rules for assigning',
    '  an attacking creature’s combat damage.',
    '',
    '> *Example:* A 6/6 green creature with trample is blocked by a 2/2 creature.',
    '',
    '702\\.19b The controller of an attacking creature with trample first assigns damage.',
    '',
    'Some commentary that is not a rule.',
  ].join('\n');
  const doc = parseMarkdown(md);
  assert.deepEqual(
    doc.rules.map((r) => r.number),
    ['702', '702.19', '702.19a', '702.19b'],
  );
  assert.equal(doc.rules[2]!.text, 'Trample is a static ability that modifies the rules for assigning an attacking creature’s combat damage.');
  assert.deepEqual(doc.rules[2]!.examples, ['A 6/6 green creature with trample is blocked by a 2/2 creature.']);
  assert.deepEqual(doc.accounting.unaccounted, [12]);
});
