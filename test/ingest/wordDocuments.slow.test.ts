import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expectedDate } from '../../ingest/store/expectedDate.js';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { parseInput } from '../../ingest/store/parseInput.js';
import { normalizeText } from '../../src/core/normalize.js';
import type { ParsedDocument } from '../../src/core/types.js';
import { CORPUS } from '../engine/corpus.js';

// The slow part of the Word document tests (npm run test:slow): every Word document of the corpus against its edition's text.
const DOCS = join(CORPUS, 'rulesraker-documents');

/** Text files of the corpus by the effective date their first lines state. */
function textFilesByDate(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const dir of ['mtg-cr', 'rulesraker']) {
    for (const name of readdirSync(join(CORPUS, dir))) {
      if (!name.endsWith('.txt') || name === 'url.txt') continue;
      const path = join(CORPUS, dir, name);
      const date = expectedDate(path, readFileSync(path));
      if (date) out.set(date, [...(out.get(date) ?? []), path]);
    }
  }
  return out;
}

// Conventions of the text exports that the document renders otherwise: <angle-bracketed> addresses
// and "_TM" after an underscored title. Then a text file may have lost characters a document kept
// (a "?" for "−", mis-encoded accented letters): what is left of its letters must appear in order.
function fold(s: string): string {
  return normalizeText(s.replace(/<([^<>\s]+)>/g, '$1').replace(/_(?:\(TM\)|TM)\b/g, '')).replace(/[^a-z0-9]/g, '');
}

function sameText(fromDoc: string, fromText: string): boolean {
  const a = fold(fromDoc);
  const b = fold(fromText);
  if (a === b) return true;
  let i = 0;
  let lost = 0;
  for (const c of b) {
    const at = a.indexOf(c, i);
    // a lost character is one letter (two for "Æ"), not a word
    if (at < 0 || at - i > 2) return false;
    lost += at - i;
    i = at + 1;
  }
  lost += a.length - i;
  return lost <= 12;
}

function differences(doc: ParsedDocument, text: ParsedDocument): string[] {
  const out: string[] = [];
  const rules = new Map(text.rules.map((r) => [r.number, r]));
  for (const r of doc.rules) {
    const t = rules.get(r.number);
    if (!t) out.push(`rule ${r.number} only in the document`);
    else if (!sameText(r.text, t.text)) out.push(`rule ${r.number}: "${r.text.slice(0, 60)}" / "${t.text.slice(0, 60)}"`);
    else if (r.examples.length !== t.examples.length || r.examples.some((e, k) => !sameText(e, t.examples[k]!))) out.push(`examples of ${r.number}`);
    rules.delete(r.number);
  }
  for (const n of rules.keys()) out.push(`rule ${n} only in the text`);
  const glossary = new Map(text.glossary.map((g) => [normalizeText(g.term), g]));
  for (const g of doc.glossary) {
    const t = glossary.get(normalizeText(g.term));
    if (!t) out.push(`glossary term ${g.term} only in the document`);
    else if (!sameText(g.definition, t.definition)) out.push(`glossary ${g.term}: "${g.definition.slice(0, 60)}" / "${t.definition.slice(0, 60)}"`);
    glossary.delete(normalizeText(g.term));
  }
  for (const g of glossary.values()) out.push(`glossary term ${g.term} only in the text`);
  return out;
}

test('every edition that has both: rules, examples and glossary from the document equal those from the text', async () => {
  const texts = textFilesByDate();
  let compared = 0;
  const problems: string[] = [];
  for (const kind of ['docx', 'doc']) {
    for (const name of readdirSync(join(DOCS, kind)).sort()) {
      const path = join(DOCS, kind, name);
      const { doc } = await parseInput(path, readFileSync(path));
      assert.equal(doc.format, kind);
      assert.deepEqual(doc.accounting.unaccounted, [], `${name}: unaccounted lines`);
      const siblings = texts.get(doc.effectiveDate!) ?? [];
      if (siblings.length === 0) continue;
      // The document must equal the edition's text: at least one copy that is not truncated.
      const results: string[][] = [];
      for (const sibling of siblings) {
        try {
          results.push(differences(doc, (await parseInput(sibling, readFileSync(sibling))).doc));
        } catch (e) {
          if (!(e instanceof IngestError)) throw e;
        }
      }
      assert.ok(results.length > 0, `${name}: no usable text copy of ${doc.effectiveDate}`);
      compared++;
      const best = results.sort((a, b) => a.length - b.length)[0]!;
      if (best.length > 0) problems.push(`${kind}/${name} (${doc.effectiveDate}): ${best.slice(0, 3).join('; ')}`);
    }
  }
  assert.deepEqual(problems, []);
  // 54 .docx and 3 .doc have a text copy of their edition (2003-06-01 and 2023-02-03 have none)
  assert.equal(compared, 57);
});
