import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { detectFormat } from '../../ingest/parse/detectFormat.js';

const shared = path.resolve(process.cwd(), '..', 'shared');
const read = (p: string): string => decodeBuffer(fs.readFileSync(path.join(shared, p))).text;

test('the five seeds are detected from their content', () => {
  assert.equal(detectFormat(read('seeds/000_fd7f68269be61ced.txt')), 'markdown');
  assert.equal(detectFormat(read('seeds/001_2032b41ab82f9f7f.txt')), 'fragment');
  assert.equal(detectFormat(read('seeds/002_11781e35e8daa943.txt')), 'rulings-html');
  assert.equal(detectFormat(read('seeds/003_444c9430a34e273b.txt')), 'fragment');
  assert.equal(detectFormat(read('seeds/004_1a2767f0f6f64d46.txt')), 'fragment');
});

test('official text files and the Rulings Summaries release, whatever their name says', () => {
  assert.equal(detectFormat(read('corpus/mtg-cr/CR-1999-04-21.txt')), 'rulings-text');
  assert.equal(detectFormat(read('corpus/rulesraker/2022-11-18.txt')), 'cr-text');
  assert.equal(detectFormat(read('corpus/rulesraker/2003-03-15.txt')), 'cr-text');
});

test('HTML by content or Content-Type; no rules → null', () => {
  const page = '<!DOCTYPE html><html><body><ul><li>702.19a Trample is a static ability.</li></ul></body></html>';
  assert.equal(detectFormat(page), 'html');
  assert.equal(detectFormat('<p id="702.19b">The controller of an attacking creature…</p>', 'text/html'), 'html');
  assert.equal(detectFormat('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>'), null);
  assert.equal(detectFormat('', 'text/plain'), null);
  assert.equal(detectFormat('   \n\n  '), null);
  assert.equal(detectFormat('Dear diary, today I played 3 games.\nIt was 2022.'), null);
  assert.equal(detectFormat('702.19b The controller of an attacking creature.', 'text/markdown'), 'markdown');
  assert.equal(detectFormat('702.19b The controller of an attacking creature.'), 'fragment');
});
