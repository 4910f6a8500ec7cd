import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { parseFragment } from '../../ingest/parse/parseFragment.js';

const seeds = path.resolve(process.cwd(), '../shared/seeds');
const seed = (name: string): string => decodeBuffer(fs.readFileSync(path.join(seeds, name))).text;

test('seed 001: a header-less run of rules; 700.2g cites 706.10', () => {
  const text = seed('001_2032b41ab82f9f7f.txt');
  const doc = parseFragment(text);
  assert.equal(doc.format, 'fragment');
  assert.equal(doc.family, 'cr');
  assert.equal(doc.complete, false);
  assert.equal(doc.effectiveDate, null);
  const g = doc.rules.find((r) => r.number === '700.2g')!;
  assert.match(g.text, /\(See rule 706\.10\.\)$/);
  assert.equal(g.parent, '700.2');
  assert.equal(g.kind, 'subrule');
  // Independent count: every non-blank line of this seed is one rule.
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  assert.equal(doc.rules.length, lines.length);
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.equal(doc.accounting.bodyLines, lines.length);
});

test("seed 003: the bulleted page's text has 607.2a–607.2n (no l, no o) and 607.5a", () => {
  const doc = parseFragment(seed('003_444c9430a34e273b.txt'));
  assert.equal(doc.title, 'Magic: The Gathering Comprehensive Rules');
  const subs = doc.rules.filter((r) => /^607\.2[a-z]$/.test(r.number)).map((r) => r.number.slice(-1));
  assert.deepEqual(subs, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'm', 'n']);
  assert.ok(doc.rules.some((r) => r.number === '607.5a'));
  const sec = doc.rules[0]!;
  assert.deepEqual([sec.number, sec.kind, sec.text, sec.parent], ['607', 'section', 'Linked Abilities', null]);
  // Lost apostrophes are kept as published; normalization deals with them when matching.
  assert.match(doc.rules.find((r) => r.number === '607.5')!.text, /they werent printed/);
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.ok(!doc.rules.some((r) => r.text.startsWith('•')));
});

test('seed 004: a part heading between rules; 202.2b exists with its example', () => {
  const doc = parseFragment(seed('004_1a2767f0f6f64d46.txt'));
  assert.deepEqual(
    doc.parts.map((p) => [p.number, p.title]),
    [['2', 'Parts of the Game']],
  );
  const b = doc.rules.find((r) => r.number === '202.2b')!;
  assert.ok(b);
  assert.equal(b.examples.length, 1);
  assert.match(b.examples[0]!, /^Saproling Burst has an ability/);
  assert.equal(doc.rules.find((r) => r.number === '202.2a')!.examples.length, 1);
  assert.ok(!doc.rules.some((r) => r.text.includes('Parts of the Game')));
  assert.deepEqual(doc.accounting.unaccounted, []);
});

test('wrapped lines join their rule; stray lines are reported with their line number', () => {
  const doc = parseFragment(
    [
      '100.1. These Magic rules apply to any Magic game',
      'with two or more players.',
      '',
      'Buy now! Free shipping',
      '100.1a A two-player game is a game that begins with only two players.',
    ].join('\n'),
  );
  assert.equal(doc.rules[0]!.text, 'These Magic rules apply to any Magic game with two or more players.');
  assert.deepEqual(doc.accounting.unaccounted, [4]);
  assert.equal(doc.accounting.bodyLines, 4);
  assert.equal(doc.accounting.accounted, 3);
  assert.ok(doc.warnings.some((w) => w.code === 'unaccounted-line' && w.line === 4));
});

test('text with no rules gives rules=[] and a no-rules warning', () => {
  const doc = parseFragment('Hello there.\nNothing to see here.\n');
  assert.deepEqual(doc.rules, []);
  assert.ok(doc.warnings.some((w) => w.code === 'no-rules'));
});
