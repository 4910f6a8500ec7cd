import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../ingest/parse/decode.js';
import { isCrText, parseCrText } from '../ingest/parse/parseCrText.js';

// Parses every CR text file of the corpus and prints per-file counts, unaccounted lines and timing.
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const root = path.resolve(args[0] ?? path.resolve(process.cwd(), '../shared/corpus'));
const verbose = process.argv.includes('--verbose');
const files: string[] = [];
for (const dir of ['mtg-cr', 'rulesraker']) {
  const d = path.join(root, dir);
  if (!fs.existsSync(d)) continue;
  for (const f of fs.readdirSync(d).sort()) if (f.endsWith('.txt') && f !== 'url.txt') files.push(path.join(d, f));
}
let decodeMs = 0;
let parseMs = 0;
let totalUnaccounted = 0;
const mismatches: string[] = [];
for (const file of files) {
  const name = path.relative(root, file);
  const buf = fs.readFileSync(file);
  let t0 = performance.now();
  let text: string;
  try {
    text = decodeBuffer(buf).text;
  } catch (e) {
    // Fall back to lenient UTF-8 so the parser can still be measured on files the decoder rejects.
    text = new TextDecoder('utf-8').decode(buf).replace(/\r\n?/g, '\n');
    console.log(`${name}: decode rejected (${(e as Error).message}); parsed leniently`);
  }
  decodeMs += performance.now() - t0;
  t0 = performance.now();
  if (!isCrText(text)) {
    parseMs += performance.now() - t0;
    console.log(`${name}: not a CR text file`);
    continue;
  }
  const doc = parseCrText(text);
  parseMs += performance.now() - t0;
  const examples = doc.rules.reduce((a, r) => a + r.examples.length, 0);
  const sections = doc.rules.filter((r) => r.kind === 'section').length;
  const other = doc.warnings.filter((w) => w.code !== 'unaccounted-line');
  totalUnaccounted += doc.accounting.unaccounted.length;
  const label = /(\d{4}-\d{2}-\d{2})/.exec(path.basename(file))?.[1] ?? null;
  if (label !== doc.effectiveDate) mismatches.push(`${name}: label ${label}, content ${doc.effectiveDate}`);
  console.log(
    `${name}: ${doc.effectiveDate} parts=${doc.parts.length} sections=${sections} rules=${doc.rules.length} ` +
      `examples=${examples} glossary=${doc.glossary.length} abilityWords=${doc.abilityWords.length} ` +
      `unaccounted=${doc.accounting.unaccounted.length}/${doc.accounting.bodyLines}` +
      (other.length ? ` warnings=${other.map((w) => w.code).join(',')}` : ''),
  );
  if (verbose) {
    for (const w of doc.warnings) console.log(`    ${w.code} ${w.line ?? ''} ${w.message}`);
  }
}
console.log(`\n${files.length} files, unaccounted lines total: ${totalUnaccounted}`);
console.log(`decode ${decodeMs.toFixed(0)} ms, parse ${parseMs.toFixed(0)} ms`);
console.log(`label/content date mismatches (${mismatches.length}):\n  ${mismatches.join('\n  ')}`);
