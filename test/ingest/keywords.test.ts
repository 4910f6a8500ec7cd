import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { keywordsOf } from '../../ingest/keywords.js';
import { parseCrText } from '../../ingest/parse/parseCrText.js';

const CORPUS = path.resolve(process.cwd(), '../shared/corpus');
const kw = (rel: string) => keywordsOf(parseCrText(decodeBuffer(fs.readFileSync(path.join(CORPUS, rel))).text));

test('modern keywords live in 701/702', () => {
  const k = kw('mtg-cr/CR-2022-11-18.txt');
  assert.deepEqual(k.find((e) => e.name === 'Flying'), { kind: 'ability', number: '702.9', name: 'Flying' });
  assert.deepEqual(k.find((e) => e.number === '701.2'), { kind: 'action', number: '701.2', name: 'Activate' });
  assert.ok(!k.some((e) => e.number === '702.1'), 'the general rule 702.1 is not a keyword');
});

test('pre-2009 keywords are found by section title (502 Keyword Abilities, 501 Keyword Actions)', () => {
  const k = kw('mtg-cr/CR-2008-10-01.txt');
  assert.deepEqual(k.find((e) => e.number === '502.2'), { kind: 'ability', number: '502.2', name: 'First Strike' });
  assert.ok(k.some((e) => e.kind === 'action' && e.number.startsWith('501.')));
  const old = kw('mtg-cr/CR-1999-04-23.txt');
  assert.deepEqual(old.map((e) => e.name).slice(0, 3), ['First Strike', 'Flanking', 'Flying']);
});
