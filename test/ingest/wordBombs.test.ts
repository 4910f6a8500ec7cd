import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { parseInput } from '../../ingest/store/parseInput.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { corpusDb } from '../cli/corpusDb.js';
import { CORPUS } from '../engine/corpus.js';
import { tempDir } from '../support/tempDir.js';

const MB = 1024 * 1024;
const bin = resolve(process.cwd(), 'bin/crkb.js');
const sharedDb = corpusDb();

/**
 * A .docx whose word/document.xml is `mb` MB of spaces in about a thousandth of that: one deflated
 * megabyte (flushed, so it stands alone) repeated, then an empty final block.
 */
function zipBomb(mb: number): Buffer {
  const chunk = deflateRawSync(Buffer.alloc(MB, 0x20), { finishFlush: constants.Z_FULL_FLUSH });
  const data = Buffer.concat([...Array<Buffer>(mb).fill(chunk), deflateRawSync(Buffer.alloc(0))]);
  const name = Buffer.from('word/document.xml');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE((mb * MB) >>> 0, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE((mb * MB) >>> 0, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12);
  end.writeUInt32LE(30 + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

/** How much the process's peak resident memory grew (MB) while `f` ran. */
async function peakGrowthMb(f: () => Promise<unknown>): Promise<number> {
  const before = process.resourceUsage().maxRSS;
  await f();
  return (process.resourceUsage().maxRSS - before) / 1024;
}

async function rejection(source: string, bytes: Uint8Array): Promise<IngestError> {
  try {
    await parseInput(source, bytes);
  } catch (e) {
    if (e instanceof IngestError) return e;
    throw e;
  }
  assert.fail(`${source} was not rejected`);
}

test('a .docx zip bomb (1 MB inflating to 1 GB) is refused by name once a part passes 64 MB, in bounded memory', async () => {
  const bomb = zipBomb(1024);
  assert.ok(bomb.length < 2 * MB);
  let error: IngestError | undefined;
  const grew = await peakGrowthMb(async () => (error = await rejection('/in/bomb.docx', bomb)));
  assert.equal(error!.message, '/in/bomb.docx: word/document.xml inflates past 64 MB: not a Rules document');
  // inflating it whole took the ingest to gigabytes; refused at the cap, it needs tens of megabytes
  assert.ok(grew < 300, `peak resident memory grew by ${grew.toFixed(0)} MB`);
});

test('the ingest report and crkb identify name the .docx bomb they refuse', async () => {
  const dir = tempDir('crkb-bomb-');
  const file = join(dir, 'bomb.docx');
  writeFileSync(file, zipBomb(256));
  const r = await runIngest({ inputs: [{ kind: 'file', location: file }], dbFile: join(dir, 'x.db') });
  assert.deepEqual(r.rejected, [{ source: file, reason: 'word/document.xml inflates past 64 MB: not a Rules document' }]);
  const id = spawnSync(process.execPath, [bin, 'identify', '--db', sharedDb(), file], { encoding: 'utf8' });
  assert.equal(id.status, 2, id.stderr);
  assert.equal(id.stderr.trim(), `crkb identify: ${file}: word/document.xml inflates past 64 MB: not a Rules document`);
});

// Word 97 documents: the corpus's 2004-06-01.doc, with its sector tables or piece table changed.
const DOC = join(CORPUS, 'rulesraker-documents/doc/2004-06-01.doc');
const SECTOR = 512;
const at = (id: number): number => (id + 1) * SECTOR;

/** The sector allocation table of a compound file (512-byte sectors), and where each entry is. */
function sat(b: Buffer): { next: (id: number) => number; where: (id: number) => number } {
  const where = (id: number): number => at(b.readInt32LE(76 + 4 * Math.floor(id / 128))) + 4 * (id % 128);
  return { next: (id) => b.readInt32LE(where(id)), where };
}

/** The sectors (file offsets) of a stream in the root directory (big streams only), and its size. */
function stream(b: Buffer, name: string): { offsets: number[]; size: number } {
  const { next } = sat(b);
  for (let dir = b.readInt32LE(48); dir >= 0; dir = next(dir)) {
    for (let e = at(dir); e < at(dir) + SECTOR; e += 128) {
      if (b.toString('utf16le', e, e + b.readUInt16LE(e + 64) - 2) !== name) continue;
      const offsets: number[] = [];
      for (let id = b.readInt32LE(e + 116); id >= 0; id = next(id)) offsets.push(at(id));
      return { offsets, size: b.readUInt32LE(e + 120) };
    }
  }
  throw new Error(`no stream ${name}`);
}

function readStream(b: Buffer, name: string): Buffer {
  const s = stream(b, name);
  return Buffer.concat(s.offsets.map((o) => b.subarray(o, o + SECTOR))).subarray(0, s.size);
}

function writeStream(b: Buffer, name: string, data: Buffer): void {
  stream(b, name).offsets.forEach((o, i) => data.copy(b, o, i * SECTOR, Math.min((i + 1) * SECTOR, data.length)));
}

/** The document with its WordDocument stream's second sector chained back to its first. */
function loopingChain(doc: Buffer): Buffer {
  const b = Buffer.from(doc);
  const first = stream(b, 'WordDocument').offsets[0]! / SECTOR - 1;
  const { next, where } = sat(b);
  b.writeInt32LE(first, where(next(first)));
  return b;
}

/** The document with its piece table replaced by as many pieces as fit, each the whole text stream. */
function overlappingPieces(doc: Buffer): Buffer {
  const b = Buffer.from(doc);
  const word = readStream(b, 'WordDocument');
  const tableName = word.readUInt16LE(0x0a) & 0x0200 ? '1Table' : '0Table';
  const table = readStream(b, tableName);
  word.writeUInt32LE(0, 0x01a2); // the piece table at the start of the table stream
  word.writeUInt32LE(0, 0x0146); // no bookmarks (they were where it now is)
  const n = Math.floor((table.length - 9) / 12);
  table[0] = 2;
  table.writeUInt32LE(12 * n + 4, 1);
  for (let x = 0; x <= n; x++) table.writeUInt32LE(x * word.length, 5 + 4 * x);
  for (let x = 0; x < n; x++) table.writeUInt32LE(0x40000000, 5 + 4 * (n + 1) + 8 * x + 2);
  writeStream(b, 'WordDocument', word);
  writeStream(b, tableName, table);
  return b;
}

test('a .doc whose sector chain loops is refused by name before word-extractor follows it (it aborted the process)', async () => {
  const bomb = loopingChain(readFileSync(DOC));
  let error: IngestError | undefined;
  const grew = await peakGrowthMb(async () => (error = await rejection('/in/loop.doc', bomb)));
  assert.equal(error!.message, '/in/loop.doc: corrupt .doc: a chain of the allocation table loops');
  assert.ok(grew < 200, `peak resident memory grew by ${grew.toFixed(0)} MB`);
});

test('a .doc whose text pieces overlap (365 KB expanding to 1.3 GB of text) is refused by name', async () => {
  const doc = readFileSync(DOC);
  const bomb = overlappingPieces(doc);
  let error: IngestError | undefined;
  const grew = await peakGrowthMb(async () => (error = await rejection('/in/pieces.doc', bomb)));
  assert.match(error!.message, /^\/in\/pieces\.doc: corrupt \.doc: its text pieces add up to more than the \d+ bytes of its text stream$/);
  assert.ok(grew < 200, `peak resident memory grew by ${grew.toFixed(0)} MB`);
  // the document it was made from still reads (its archive label is not its edition)
  assert.equal((await parseInput('2004-06-01.doc', doc)).doc.effectiveDate, '2003-06-01');
});
