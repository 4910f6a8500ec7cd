import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { findEffectiveDate } from '../../ingest/parse/effectiveDate.js';

const CORPUS = path.resolve(process.cwd(), '../shared/corpus');
const dateOf = (rel: string): string | null => findEffectiveDate(decodeBuffer(fs.readFileSync(path.join(CORPUS, rel))).text);

test('statements the documents make of themselves', () => {
  assert.equal(findEffectiveDate('These rules are current as of March 15, 2003.'), '2003-03-15');
  assert.equal(findEffectiveDate('These rules are effective as of November 18, 2022.'), '2022-11-18');
  assert.equal(findEffectiveDate('COMPREHENSIVE RULES                                   04/23/99\n'), '1999-04-23');
  assert.equal(findEffectiveDate('no date here'), null);
  assert.equal(findEffectiveDate('These rules are current as of Smarch 15, 2003.'), null);
});

test('effective dates of corpus files', () => {
  assert.equal(dateOf('mtg-cr/CR-1999-04-23.txt'), '1999-04-23');
  assert.equal(dateOf('mtg-cr/CR-1999-11-01.txt'), '1999-11-01');
  assert.equal(dateOf('mtg-cr/CR-2003-03-15.txt'), '2003-03-15');
  assert.equal(dateOf('mtg-cr/CR-2009-07-08.txt'), '2009-07-11');
  assert.equal(dateOf('mtg-cr/CR-2021-02-24.txt'), '2021-02-15');
  assert.equal(dateOf('rulesraker/2022-11-18.txt'), '2022-11-18');
});

test('the file whose archive label disagrees with its content by years', () => {
  assert.equal(dateOf('rulesraker/2006-06-01.txt'), '2004-06-01');
});
