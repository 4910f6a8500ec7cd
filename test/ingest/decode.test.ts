import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer, DecodeError } from '../../ingest/parse/decode.js';

const sample = '100.1. These Magic rules apply to any Magic game.\n100.1a A two-player game’s “rules” — here.\n';

function utf16be(s: string): Buffer {
  const b = Buffer.from(s, 'utf16le');
  b.swap16();
  return b;
}

test('UTF-8 with and without BOM', () => {
  const plain = decodeBuffer(Buffer.from(sample, 'utf8'));
  assert.equal(plain.encoding, 'utf-8');
  assert.equal(plain.text, sample);
  const bom = decodeBuffer(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(sample, 'utf8')]));
  assert.equal(bom.encoding, 'utf-8-bom');
  assert.equal(bom.text, sample);
});

test('UTF-16 little- and big-endian, with and without BOM', () => {
  const le = decodeBuffer(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sample, 'utf16le')]));
  assert.equal(le.encoding, 'utf-16le');
  assert.equal(le.text, sample);
  const leNoBom = decodeBuffer(Buffer.from(sample, 'utf16le'));
  assert.equal(leNoBom.encoding, 'utf-16le');
  assert.equal(leNoBom.text, sample);
  const be = decodeBuffer(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(sample)]));
  assert.equal(be.encoding, 'utf-16be');
  assert.equal(be.text, sample);
  const beNoBom = decodeBuffer(utf16be(sample));
  assert.equal(beNoBom.encoding, 'utf-16be');
  assert.equal(beNoBom.text, sample);
});

test('Windows-1252 curly quotes and dashes', () => {
  const bytes = Buffer.from([0x93, 0x41, 0x94, 0x20, 0x97, 0x20, 0x92, 0x99]);
  const d = decodeBuffer(bytes);
  assert.equal(d.encoding, 'windows-1252');
  assert.equal(d.text, '“A” — ’™');
});

test('ASCII, and LF, CRLF and bare CR line endings all become LF', () => {
  const d = decodeBuffer(Buffer.from('a\r\nb\rc\nd', 'ascii'));
  assert.equal(d.encoding, 'ascii');
  assert.equal(d.text, 'a\nb\nc\nd');
  assert.deepEqual(d.lineEndings, ['lf', 'crlf', 'cr']);
  assert.deepEqual(decodeBuffer(Buffer.from('a\r\rb')).lineEndings, ['cr']);
});

test('rejects empty files, images and unknown encodings with a reason', () => {
  assert.throws(
    () => decodeBuffer(Buffer.alloc(0)),
    (e: unknown) => e instanceof DecodeError && /empty/.test(e.message),
  );
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  assert.throws(() => decodeBuffer(png), /PNG image/);
  // Bytes undefined in Windows-1252 and invalid as UTF-8: some other code page.
  const unknown = Buffer.from([0x41, 0x81, 0x8d, 0x42, 0x9d, 0x43, 0x20, 0x8f, 0x90]);
  assert.throws(() => decodeBuffer(unknown), /unknown text encoding/);
  const binary = Buffer.from(Array.from({ length: 200 }, (_, i) => (i * 7) % 32));
  assert.throws(() => decodeBuffer(binary), /binary data|unknown/);
});

test('repairs UTF-16 that went through a UTF-8 converter (BOM and high bytes lost)', () => {
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Magic—“©2016” rules\r\n', 'utf16le')]);
  // What a lossy UTF-8 conversion does: every byte >= 0x80 becomes EF BF BD.
  const damaged = Buffer.concat([...utf16].map((b) => (b >= 0x80 ? Buffer.from([0xef, 0xbf, 0xbd]) : Buffer.from([b]))));
  const d = decodeBuffer(damaged);
  assert.equal(d.encoding, 'utf-16le');
  assert.equal(d.text, 'Magic—“?2016” rules\n');
  assert.match(d.damage ?? '', /lost/);
});

const CORPUS = path.resolve(process.cwd(), '../shared/corpus');

test('a Mac Roman file is read as Mac Roman, not Windows-1252 (rulesraker/2004-02-01.txt)', () => {
  const d = decodeBuffer(fs.readFileSync(path.join(CORPUS, 'rulesraker/2004-02-01.txt')));
  assert.equal(d.encoding, 'mac-roman');
  assert.ok(!/DCIª|\dÐ\d/.test(d.text), 'no Windows-1252 reading of Mac Roman ™ and –');
  assert.match(d.text, /DCI™ Floor Rules/);
  assert.equal(d.text.match(/™/g)?.length, 9);
  assert.match(d.text, /306–311/);
  // the same sentences in the Windows-1252 edition before it read the same
  const before = decodeBuffer(fs.readFileSync(path.join(CORPUS, 'rulesraker/2003-12-01.txt')));
  assert.equal(before.encoding, 'windows-1252');
  assert.equal(before.text.match(/™/g)?.length, 9);
});

test('Mac Roman typography in a small buffer; Windows-1252 wins a tie', () => {
  const mac = decodeBuffer(Buffer.from([0xd2, 0x41, 0xd3, 0x20, 0xd1, 0x20, 0xd5, 0xaa]));
  assert.equal(mac.encoding, 'mac-roman');
  assert.equal(mac.text, '“A” — ’™');
  assert.equal(decodeBuffer(Buffer.from([0x41, 0xe9, 0x42])).encoding, 'windows-1252');
});

test('words holding a byte no typography explains are reported with their other readings', () => {
  // "Dand\x83n" in an otherwise ASCII file (mtg-cr/CR-2013-07-11.txt line 2489)
  const d = decodeBuffer(fs.readFileSync(path.join(CORPUS, 'mtg-cr/CR-2013-07-11.txt')));
  const words = d.ambiguous ?? [];
  const dandan = words.find((w) => w.read === 'Dandƒn');
  assert.ok(dandan, 'Dandƒn reported');
  assert.equal(dandan.line, 2489);
  assert.ok(dandan.alternatives.some((a) => a.word === 'Dandân' && a.codePage === 'cp437'));
  assert.ok(words.some((w) => w.read === '’ther' && w.alternatives.some((a) => a.word === 'Æther')));
  // curly quotes inside words are typography, not ambiguity
  assert.equal(decodeBuffer(Buffer.from([0x64, 0x6f, 0x6e, 0x92, 0x74])).ambiguous, undefined);
});

test('a UTF-8 file with a stray byte keeps its UTF-8 and reports the byte', () => {
  const bytes = Buffer.concat([
    Buffer.from('“Quoted” Dand', 'utf8'),
    Buffer.from([0x83]),
    Buffer.from('n Ghazb', 'utf8'),
    Buffer.from([0xa0]),
    Buffer.from('n\n', 'utf8'),
  ]);
  const d = decodeBuffer(bytes);
  assert.equal(d.encoding, 'utf-8');
  assert.equal(d.text, '“Quoted” Dandƒn Ghazb\u00a0n\n');
  assert.deepEqual(
    d.ambiguous?.map((w) => w.read),
    ['Dandƒn', 'Ghazb\u00a0n'],
  );
});

test('Unicode line separators, NEL and bare CR all end lines', () => {
  const d = decodeBuffer(Buffer.from('100.1. A\u2028100.2. B\u2029\u2029100.3. C\u0085100.4. D\r100.5. E\r\n', 'utf8'));
  assert.equal(d.text, '100.1. A\n100.2. B\n\n100.3. C\n100.4. D\n100.5. E\n');
  assert.deepEqual(d.lineEndings, ['crlf', 'cr', 'nel', 'ls', 'ps']);
});
