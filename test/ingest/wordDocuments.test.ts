import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { docxParagraphs } from '../../ingest/parse/docxParagraphs.js';
import { parseWordDocument } from '../../ingest/parse/parseWordDocument.js';
import { parseInput } from '../../ingest/store/parseInput.js';
import { expectedInputDate, readWordDocument, wordKindOf } from '../../ingest/store/readWordDocument.js';
import { readZipEntry } from '../../ingest/store/readZipEntry.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { CORPUS } from '../engine/corpus.js';

const DOCS = join(CORPUS, 'rulesraker-documents');

/** A little-endian record of `size` bytes: [offset, bytes (2 or 4), value] fields, the rest zero. */
function record(size: number, fields: Array<[number, 2 | 4, number]>): Buffer {
  const b = Buffer.alloc(size);
  for (const [at, width, value] of fields) {
    if (width === 2) b.writeUInt16LE(value, at);
    else b.writeUInt32LE(value, at);
  }
  return b;
}

/** A zip archive of the given entries (deflated), as Word writes a .docx. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, body] of Object.entries(entries)) {
    const data = deflateRawSync(Buffer.from(body, 'utf8'));
    const n = Buffer.from(name, 'utf8');
    const size = Buffer.byteLength(body);
    locals.push(
      record(30, [
        [0, 4, 0x04034b50],
        [8, 2, 8],
        [18, 4, data.length],
        [22, 4, size],
        [26, 2, n.length],
      ]),
      n,
      data,
    );
    centrals.push(
      record(46, [
        [0, 4, 0x02014b50],
        [10, 2, 8],
        [20, 4, data.length],
        [24, 4, size],
        [28, 2, n.length],
        [42, 4, offset],
      ]),
      n,
    );
    offset += 30 + n.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const count = centrals.length / 2;
  const end = record(22, [
    [0, 4, 0x06054b50],
    [8, 2, count],
    [10, 2, count],
    [12, 4, dir.length],
    [16, 4, offset],
  ]);
  return Buffer.concat([...locals, dir, end]);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

test('docx paragraphs: text runs, tabs and breaks; deleted text, field codes and fallbacks left out', () => {
  const body =
    `<w:document ${W}><w:body>` +
    '<w:p><w:pPr><w:pStyle w:val="CR1001a"/><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>' +
    '<w:r><w:t>100.1a A </w:t></w:r><w:r><w:t xml:space="preserve">two-player &amp; “game”</w:t></w:r>' +
    '<w:del><w:r><w:delText>removed</w:delText></w:r></w:del>' +
    '<w:r><w:instrText> HYPERLINK "x" </w:instrText></w:r><w:r><w:tab/><w:t>x</w:t><w:br/><w:t>y</w:t><w:noBreakHyphen/></w:r>' +
    '<mc:AlternateContent><mc:Choice><w:r><w:t>!</w:t></w:r></mc:Choice><mc:Fallback><w:r><w:t>!</w:t></w:r></mc:Fallback></mc:AlternateContent></w:p>' +
    '<w:p/><w:p><w:r><w:t>&#8212;&#x2122;</w:t></w:r></w:p></w:body></w:document>';
  assert.deepEqual(docxParagraphs(Buffer.from(body)), ['100.1a A two-player & “game”\tx\ny-!', '', '—™']);
});

test('zip entries: stored entries are inflated, a missing one is null, a cut archive is refused', () => {
  const z = zip({ 'a.txt': 'hello', 'word/document.xml': '<w:document/>' });
  assert.equal(readZipEntry(z, 'a.txt', { maxBytes: 100 })?.toString(), 'hello');
  assert.equal(readZipEntry(z, 'b.txt', { maxBytes: 100 }), null);
  assert.throws(() => readZipEntry(z.subarray(0, z.length - 30), 'a.txt', { maxBytes: 100 }), /no zip central directory/);
  assert.equal(wordKindOf('x.bin', z), 'docx');
  assert.equal(wordKindOf('x.zip', zip({ 'a.txt': 'x' })), null);
});

test('a Word document parses like the text file it was exported to (paragraphs are lines)', () => {
  const paragraphs = [
    'Magic: The Gathering Comprehensive Rules',
    'These rules are effective as of July 1, 2030.',
    '',
    '1. Game Concepts',
    '',
    '100. General',
    '',
    ...Array.from({ length: 25 }, (_, i) => [`100.${i + 1}. Rule ${i + 1} text.`, '']).flat(),
    '100.3a A subrule.',
    'Example: An example.',
    '',
    'Glossary',
    '',
    'Ability',
    'Text on an object.',
    '',
    'Credits',
    'Someone',
  ];
  const { doc, decoded } = parseWordDocument('x.docx', paragraphs, 'docx');
  assert.equal(doc.format, 'docx');
  assert.equal(decoded.encoding, 'word');
  assert.equal(doc.effectiveDate, '2030-07-01');
  assert.equal(doc.rules.find((r) => r.number === '100.3a')?.examples[0], 'An example.');
  assert.deepEqual(
    doc.glossary.map((g) => [g.term, g.definition]),
    [['Ability', 'Text on an object.']],
  );
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.throws(() => parseWordDocument('x.docx', ['Dear reader'], 'docx'), /x\.docx.*no rules found/);
});

test('the editions that exist only as documents: 2003-06-01 (Scourge, .doc) and 2023-02-03 (.docx)', async () => {
  const scourge = await parseInput(join(DOCS, 'doc/2004-06-01.doc'), readFileSync(join(DOCS, 'doc/2004-06-01.doc')));
  assert.equal(scourge.doc.effectiveDate, '2003-06-01');
  // Scourge brought storm (502.30 in the 2003 numbering)
  assert.match(scourge.doc.rules.find((r) => r.number === '502.30a')?.text ?? '', /^Storm is a triggered ability/);
  const one = await parseInput(join(DOCS, 'docx/2023-02-03.docx'), readFileSync(join(DOCS, 'docx/2023-02-03.docx')));
  assert.equal(one.doc.effectiveDate, '2023-02-03');
  assert.ok(one.doc.glossary.length > 600);
  // curly quotes kept: the .doc reader's ASCII folding is off
  assert.match(scourge.doc.introduction ?? '', /’/);
});

test('bad Word documents get one rejection line each, naming the file; the other inputs are stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-word-'));
  try {
    const docx = readFileSync(join(DOCS, 'docx/2023-02-03.docx'));
    const doc = readFileSync(join(DOCS, 'doc/2004-06-01.doc'));
    writeFileSync(join(dir, 'no-document.docx'), zip({ '[Content_Types].xml': '<Types/>', 'word/styles.xml': '<w:styles/>' }));
    writeFileSync(join(dir, 'html.doc'), '<html><head><title>Rules</title></head><body><p>100.1. These Magic rules apply</p></body></html>');
    writeFileSync(join(dir, 'truncated.docx'), docx.subarray(0, docx.length >> 1));
    writeFileSync(join(dir, 'truncated.doc'), doc.subarray(0, 20000));
    // a password-protected .docx is an encrypted compound file
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    Buffer.from('EncryptionInfo', 'utf16le').copy(ole, 1024);
    writeFileSync(join(dir, 'locked.docx'), ole);
    writeFileSync(join(dir, 'good.docx'), docx);
    const r = await runIngest({ inputs: expandInputs([dir]), dbFile: join(dir, 'x.db') });
    const reasons = new Map(r.rejected.map((x) => [x.source.split('/').pop(), x.reason]));
    assert.match(reasons.get('no-document.docx') ?? '', /corrupt \.docx: the zip holds no word\/document\.xml/);
    assert.match(reasons.get('html.doc') ?? '', /not a \.doc: it holds an HTML page/);
    assert.match(reasons.get('truncated.docx') ?? '', /corrupt \.docx: .*truncated/);
    assert.match(reasons.get('truncated.doc') ?? '', /\.doc/);
    assert.match(reasons.get('locked.docx') ?? '', /password-protected/);
    assert.equal(r.rejected.length, 5);
    assert.deepEqual(
      r.editions.map((e) => e.effectiveDate),
      ['2023-02-03'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Word documents are found when walking folders; a .doc is read with the Word reader', async () => {
  const found = expandInputs([DOCS]).map((i) => i.location.split('/').slice(-2).join('/'));
  assert.ok(found.includes('docx/2023-02-03.docx') && found.includes('doc/2004-06-01.doc'));
  const paragraphs = await readWordDocument('2004-06-01.doc', readFileSync(join(DOCS, 'doc/2004-06-01.doc')), 'doc');
  assert.ok(paragraphs.includes('These rules are current as of June 1, 2003.'));
});

test('the date of a Word document is guessed from its head before parsing, not from its archive label', () => {
  const guess = (rel: string): string | null => expectedInputDate(join(DOCS, rel), readFileSync(join(DOCS, rel)));
  assert.equal(guess('docx/2013-04-29.docx'), '2013-05-01');
  assert.equal(guess('doc/2004-06-01.doc'), '2003-06-01');
  assert.equal(guess('doc/2009-07-11.doc'), '2009-07-11');
  // a document whose head cannot be read falls back to its label
  assert.equal(expectedInputDate('x/2030-01-02.docx', Buffer.from('PK\x03\x04 broken')), '2030-01-02');
});
