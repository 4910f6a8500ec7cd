import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { awaitReadAhead, startPdfReadAhead } from '../../ingest/store/pdfReadAhead.js';
import { cachedPdfPages, hasCachedPdfPages } from '../../ingest/store/pdfTextCache.js';
import { readPdf } from '../../ingest/store/readPdf.js';
import { sha256Hex } from '../../ingest/store/sources.js';

const policy = path.resolve(process.cwd(), '..', 'shared', 'policy');
const pdfs = [path.join(policy, 'mtr', '2000-06-01.pdf'), path.join(policy, 'ipg', '2001-11-01.pdf')];

test('PDFs missing from the cache are read ahead, in order, into it: the same pages readPdf gives; a PDF cached, or no PDF, is not', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-readahead-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const text = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-readahead-txt-'));
  t.after(() => fs.rmSync(text, { recursive: true, force: true }));
  fs.writeFileSync(path.join(text, 'cr.txt'), 'not a PDF');
  const task = (f: string): { path: string; bytes: null; sha256: string; pdfCache: string } => ({
    path: f,
    bytes: null,
    sha256: sha256Hex(fs.readFileSync(f)),
    pdfCache: dir,
  });
  const tasks = [task(path.join(text, 'cr.txt')), ...pdfs.map(task)];
  const ahead = startPdfReadAhead(tasks, [...tasks.keys()].reverse());
  assert.ok(ahead);
  t.after(() => ahead.close());
  assert.equal(ahead.claimOf(0), undefined, 'a text file is not read ahead');
  for (let i = 0; i < 600 && !tasks.slice(1).every((tk) => hasCachedPdfPages(dir, tk.sha256)); i++) await sleep(100);
  for (const [i, tk] of tasks.entries()) {
    if (i === 0) continue;
    assert.equal(awaitReadAhead(ahead.claimOf(i)!), true, `${tk.path} was read ahead`);
    assert.deepEqual(cachedPdfPages(dir, tk.sha256), await readPdf(tk.path, fs.readFileSync(tk.path)));
  }
  assert.equal(startPdfReadAhead(tasks, [...tasks.keys()]), null, 'every PDF is cached: nothing to read ahead');
});

test('a PDF the parse worker claims first is left to it', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-readahead-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const tasks = pdfs.map((f) => ({ path: f, bytes: null, sha256: sha256Hex(fs.readFileSync(f)), pdfCache: dir }));
  // the last in order: the read-ahead thread cannot have started it when this thread claims it
  const ahead = startPdfReadAhead(tasks, [...tasks.keys()]);
  assert.ok(ahead);
  const last = tasks.length - 1;
  assert.equal(awaitReadAhead(ahead.claimOf(last)!), false, 'claimed by the caller');
  // (not waited for by Atomics.wait here: this thread must turn its event loop for the worker to start)
  for (let i = 0; i < 600 && !hasCachedPdfPages(dir, tasks[0]!.sha256); i++) await sleep(100);
  for (let i = 0; i < last; i++) assert.equal(awaitReadAhead(ahead.claimOf(i)!), true);
  await ahead.close();
  assert.equal(hasCachedPdfPages(dir, tasks[last]!.sha256), false, 'the read-ahead thread left it alone');
});

test('a read-ahead thread that ends in the middle of a PDF releases it: no parse worker waits for it', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-readahead-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // the largest PDFs of the folder: each takes the thread long enough to be caught reading it
  const big = ['2015-03-27', '2019-01-21', '2019-05-03'].map((d) => path.join(policy, 'mtr', `${d}.pdf`));
  const tasks = big.map((f) => ({ path: f, bytes: null, sha256: sha256Hex(fs.readFileSync(f)), pdfCache: dir }));
  const ahead = startPdfReadAhead(tasks, [...tasks.keys()]);
  assert.ok(ahead);
  const state = new Int32Array(ahead.claimOf(0)!.claims);
  const READING = 1;
  let reading = -1;
  for (let i = 0; i < 6000 && reading < 0; i++) {
    reading = state.findIndex((s) => s === READING);
    if (reading < 0) await sleep(5);
  }
  assert.ok(reading >= 0, 'the thread was seen reading a PDF');
  await ahead.close();
  // (the thread's exit is told to this thread's event loop)
  for (let i = 0; i < 200 && state.includes(READING); i++) await sleep(10);
  assert.deepEqual(
    [...state].map((s) => s === READING),
    tasks.map(() => false),
    'no PDF is left claimed by the ended thread',
  );
  // (a claim left READING would block this call for good)
  assert.equal(awaitReadAhead(ahead.claimOf(reading)!), true, 'the PDF it was reading is done with, not waited for');
});
