import { test } from 'node:test';
import assert from 'node:assert/strict';
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
  assert.throws(() => decodeBuffer(Buffer.alloc(0)), (e: unknown) => e instanceof DecodeError && /empty/.test(e.message));
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
