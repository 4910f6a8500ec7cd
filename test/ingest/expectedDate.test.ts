import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expectedDate } from '../../ingest/store/expectedDate.js';

const corpus = resolve(process.cwd(), '../shared/corpus');

test('the date a file states at its top wins over the date in its name', () => {
  const path = resolve(corpus, 'rulesraker/2006-06-01.txt');
  assert.equal(expectedDate(path, readFileSync(path)), '2004-06-01');
});

test('UTF-16 text is read for its date too', () => {
  const text = 'Magic: The Gathering Comprehensive Rules\r\nThese rules are effective as of July 11, 2009.\r\n';
  const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  assert.equal(expectedDate('/x/unlabelled.txt', bytes), '2009-07-11');
});

test('without a stated date the name decides, and without either there is no guess', () => {
  const bytes = Buffer.from('100.1. These Magic rules apply to any Magic game.\n', 'utf8');
  assert.equal(expectedDate('/x/CR-2012-10-01.txt', bytes), '2012-10-01');
  assert.equal(expectedDate('/x/rules.txt', bytes), null);
  assert.equal(expectedDate('/x/image-2012-10-01.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0])), '2012-10-01');
});
