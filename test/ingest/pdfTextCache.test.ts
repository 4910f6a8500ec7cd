import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseInput } from '../../ingest/store/parseInput.js';
import { cachedPdfPages, cachePdfPages } from '../../ingest/store/pdfTextCache.js';
import { sha256Hex } from '../../ingest/store/sources.js';
import type { PdfPage } from '../../ingest/parse/pdfText.js';

const file = path.resolve(process.cwd(), '..', 'shared', 'policy', 'mtr', '2000-06-01.pdf');

test('a PDF read once is kept by sha256 and parsed from the cache to the same document; a damaged entry is read again', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-pdfcache-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bytes = fs.readFileSync(file);
  const sha256 = sha256Hex(bytes);
  const cache = { dir, sha256 };

  const plain = await parseInput(file, bytes);
  assert.equal(cachedPdfPages(dir, sha256), null);
  // entries an older build wrote (gzipped JSON, an older reader), another PDF's, and a write in progress
  const older = [`${sha256}.pdfium-7.0.0.readPdf-2.json.gz`, `${sha256}.pdfium-7.0.0.readPdf-1.json.gz`];
  const others = [`${'0'.repeat(64)}.pdfium-7.0.0.readPdf-2.json.gz`, `${sha256}.pdfium-7.0.0.readPdf-2.runs-1.tmp-1-abc`];
  for (const name of [...older, ...others]) fs.writeFileSync(path.join(dir, name), 'x');
  const first = await parseInput(file, bytes, null, cache);
  for (const name of older) assert.equal(fs.existsSync(path.join(dir, name)), false, `${name} is removed once the entry is written`);
  for (const name of others) assert.ok(fs.existsSync(path.join(dir, name)), `${name} is kept`);
  for (const name of others) fs.rmSync(path.join(dir, name));
  const kept = cachedPdfPages(dir, sha256);
  assert.ok(kept && kept.length > 0 && kept[0]!.items.length > 0, 'the text runs are kept');
  assert.deepEqual(first, plain);

  // from the cache alone: bytes that are no PDF's would be rejected if they were read
  const fromCache = await parseInput(file, bytes, null, cache);
  assert.deepEqual(fromCache, plain);
  const marked = structuredClone(kept);
  marked[0]!.items[0]!.str = 'CACHED ' + marked[0]!.items[0]!.str;
  cachePdfPages(dir, sha256, marked);
  const used = await parseInput(file, bytes, null, cache);
  assert.match(used.decoded.text, /CACHED /);

  // a damaged entry (not of this form, or cut short): the PDF is read again and the entry written anew
  const [entry] = fs.readdirSync(dir);
  const whole = fs.readFileSync(path.join(dir, entry!));
  fs.writeFileSync(path.join(dir, entry!), whole.subarray(0, whole.length - 8));
  assert.equal(cachedPdfPages(dir, sha256), null, 'an entry cut short is not read');
  fs.writeFileSync(path.join(dir, entry!), 'not an entry');
  assert.equal(cachedPdfPages(dir, sha256), null, 'an entry of another form is not read');
  assert.deepEqual(await parseInput(file, bytes, null, cache), plain);
  const strings = (pages: PdfPage[] | null): string[] => (pages ?? []).flatMap((p) => p.items.map((i) => i.str));
  assert.deepEqual(strings(cachedPdfPages(dir, sha256)), strings(kept));
});
