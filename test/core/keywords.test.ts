import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { findKeywords } from '../../src/core/keywords.js';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { parseCrText } from '../../ingest/parse/parseCrText.js';

const CORPUS = path.resolve(process.cwd(), '../shared/corpus');

/** Keywords of a corpus file, found as the query layer finds them (sections and their children). */
function kw(rel: string) {
  const doc = parseCrText(decodeBuffer(fs.readFileSync(path.join(CORPUS, rel))).text);
  const sections = doc.rules.filter((r) => r.kind === 'section').map((r) => ({ number: r.number, title: r.text }));
  return findKeywords(sections, (n) => doc.rules.filter((r) => r.parent === n));
}

test('modern keywords live in 701/702', () => {
  const k = kw('mtg-cr/CR-2022-11-18.txt');
  assert.deepEqual(
    k.find((e) => e.name === 'Flying'),
    { kind: 'ability', number: '702.9', name: 'Flying' },
  );
  assert.deepEqual(
    k.find((e) => e.number === '701.2'),
    { kind: 'action', number: '701.2', name: 'Activate' },
  );
  assert.ok(!k.some((e) => e.number === '702.1'), 'the general rule 702.1 is not a keyword');
  // five-word names (a four-word cap missed them)
  assert.deepEqual(k.find((e) => e.number === '702.162')?.name, 'More Than Meets the Eye');
  assert.deepEqual(k.find((e) => e.number === '701.49')?.name, 'Roll to Visit Your Attractions');
});

test('pre-2009 keywords are found by section title (502 Keyword Abilities, 501 Keyword Actions)', () => {
  const k = kw('mtg-cr/CR-2008-10-01.txt');
  assert.deepEqual(
    k.find((e) => e.number === '502.2'),
    { kind: 'ability', number: '502.2', name: 'First Strike' },
  );
  assert.ok(k.some((e) => e.kind === 'action' && e.number.startsWith('501.')));
  const old = kw('mtg-cr/CR-1999-04-23.txt');
  assert.deepEqual(old.map((e) => e.name).slice(0, 3), ['First Strike', 'Flanking', 'Flying']);
});

test('a keyword rule is just a name: italics underscores and a trailing period are dropped, sentences are not keywords', () => {
  const sections = [{ number: '702', title: 'Keyword Abilities' }];
  const children = [
    { number: '702.1', text: 'Most abilities describe exactly what they do.' },
    { number: '702.2', text: 'Deathtouch' },
    { number: '702.3', text: '_Defender_' },
    { number: '702.4', text: 'Level Up.' },
  ];
  assert.deepEqual(
    findKeywords(sections, () => children).map((k) => k.name),
    ['Deathtouch', 'Defender', 'Level Up'],
  );
});
