// node scripts/_cmp.mjs DISTROOT OUT: glossary identity outputs
import { writeFileSync } from 'node:fs';
const [root, out] = process.argv.slice(2);
const { KnowledgeBase } = await import(`${root}/dist/src/query/KnowledgeBase.js`);
const kb = KnowledgeBase.open('data/before.db');
const lines = [];
const cr = kb.editions().filter((e) => e.family === 'cr');
let t0 = performance.now();
for (const e of cr) {
  const texts = [];
  for (let p = 0; p < kb.ruleCount(e.id); p++) { const r = kb.snapshot.ruleAt(e.id, p); texts.push(r.text, ...kb.examples(r)); }
  for (const g of kb.glossary(e.id)) texts.push(g.definition);
  for (const t of texts) { const m = kb.glossaryMentions(e.id, t); if (m.length) lines.push(`M ${e.effectiveDate} ${m.map((x) => `${x.start}-${x.end}:${x.entry.term}`).join('|')}`); }
}
const mentionsMs = performance.now() - t0;
const off = cr.filter((e) => e.official);
let changedPairs = 0;
for (let i = 1; i < off.length; i++) {
  const d = kb.diff(off[i - 1], off[i], { segments: false });
  lines.push(`D ${off[i - 1].effectiveDate}>${off[i].effectiveDate} ${JSON.stringify(d.glossary)}`);
}
const terms = new Set(); for (const e of off) for (const g of kb.glossary(e.id)) terms.add(g.term);
for (const t of terms) { const h = kb.glossaryHistory(t); lines.push(`H ${t} ${JSON.stringify(h)}`); }
for (const e of cr) for (const t of terms) { const g = kb.glossaryTerm(e.id, t); lines.push(`L ${e.effectiveDate} ${t} ${g ? g.versionId : '-'}`); }
writeFileSync(out, lines.join('\n') + '\n');
console.log(root, lines.length, 'lines; mentions', Math.round(mentionsMs), 'ms');
