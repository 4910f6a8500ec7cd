#!/usr/bin/env node
// Compares what two built checkouts answer for diffs and histories on one database, in one process:
// diff JSON (with word segments), `crkb diff --json` and `--markdown` text, the web diff page (inline,
// side by side, a section, a kind), the tournament documents' diff pages, and history pages (CR, MTR,
// IPG). Pairs: every official neighbour of each family, far pairs (every 10th edition to every 25th,
// both ways) and each family's first to its latest. Prints a line per difference and a count; exit 1
// when any output differs.
//
//   node scripts/compareDiffOutputs.mjs --a /work/main --b . [--db data/crkb.db] [--histories 400]
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: '.' },
    db: { type: 'string', default: 'data/crkb.db' },
    histories: { type: 'string', default: '400' },
  },
});
if (!values.a) {
  console.error('usage: node scripts/compareDiffOutputs.mjs --a DIR --b DIR [--db FILE] [--histories N]');
  process.exit(1);
}
const db = resolve(values.db);

/** The outputs of one checkout, by name (each a string), over the same requests. */
async function outputs(dir) {
  const m = (p) => import(pathToFileURL(resolve(dir, 'dist/src', p)).href);
  const { KnowledgeBase } = await m('query/KnowledgeBase.js');
  const { diffPage } = await m('web/pages/diffPage.js');
  const { historyPage } = await m('web/pages/historyPage.js');
  const { policyDiffPage, policyHistoryPage } = await m('web/pages/policyPages.js');
  const { layout } = await m('web/layout.js');
  const { Assets } = await m('web/Assets.js');
  const { diffToJson } = await m('engine/diffEditions.js');
  const { releaseNotes } = await m('cli/diff.js');
  const kb = KnowledgeBase.open(db, { diffCacheBytes: 64 * 1024 * 1024 });
  const ctx = { assets: new Assets(), publicUrl: 'http://127.0.0.1:4000' };
  const out = new Map();
  const put = (name, f) => {
    try {
      out.set(name, f());
    } catch (e) {
      out.set(name, `throws ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  for (const family of ['cr', 'mtr', 'ipg']) {
    const chain = kb.officialEditions(family);
    if (chain.length < 2) continue;
    const pairs = chain.slice(1).map((e, k) => [chain[k], e]);
    for (let i = 0; i < chain.length; i += 10) for (let j = i + 25; j < chain.length; j += 25) pairs.push([chain[i], chain[j]], [chain[j], chain[i]]);
    pairs.push([chain[0], chain.at(-1)]);
    for (const [a, b] of pairs) {
      const key = `${family} ${a.effectiveDate} ${b.effectiveDate}`;
      put(`json ${key}`, () => JSON.stringify(kb.diff(a, b)));
      put(`cli-json ${key}`, () => JSON.stringify(diffToJson(kb.diff(a, b, { segments: false, rulesOnly: true }))));
      put(`markdown ${key}`, () => releaseNotes(kb.diff(a, b)));
      if (family === 'cr') {
        const page = (v) => layout(ctx, diffPage(kb, a, b, a.effectiveDate, b.effectiveDate, { section: null, kinds: [], view: 'inline', ...v }));
        put(`page ${key}`, () => page({}));
        put(`page side ${key}`, () => page({ view: 'side' }));
        put(`page 702 substantive ${key}`, () => page({ section: '702', kinds: ['substantive'] }));
      } else put(`page ${key}`, () => layout(ctx, policyDiffPage(kb, a, b, kb.diff(a, b, { rulesOnly: true }))));
    }
    // histories: rules of the latest and of a middle edition, spread over the document
    for (const e of [chain.at(-1), chain[chain.length >> 1]]) {
      const numbers = kb.numbers(e.id);
      const step = Math.max(1, Math.floor(numbers.length / Number(values.histories)));
      for (let k = 0; k < numbers.length; k += step) {
        const n = numbers[k];
        put(`history ${family} ${e.effectiveDate} ${n}`, () => {
          const h = kb.history(e, n);
          if (!h) return 'none';
          return layout(ctx, family === 'cr' ? historyPage(kb, e, n, h) : policyHistoryPage(e, n, h)) + JSON.stringify(h);
        });
      }
    }
  }
  kb.close();
  return out;
}

const [a, b] = [await outputs(resolve(values.a)), await outputs(resolve(values.b))];
const hash = (s) => createHash('sha256').update(s).digest('hex').slice(0, 12);
let differ = 0;
let bytes = 0;
for (const [name, x] of a) {
  const y = b.get(name);
  bytes += x.length;
  if (x !== y) {
    differ++;
    if (differ <= 20) console.log(`DIFFERS ${name}: ${hash(x)} (${x.length}) vs ${y === undefined ? 'missing' : `${hash(y)} (${y.length})`}`);
  }
}
for (const name of b.keys()) if (!a.has(name)) differ++;
const kinds = new Map();
for (const name of a.keys()) kinds.set(name.split(' ')[0], (kinds.get(name.split(' ')[0]) ?? 0) + 1);
console.log(
  `${a.size} outputs compared (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}; ${(bytes / 1e6).toFixed(1)} MB): ${differ === 0 ? 'all identical' : `${differ} differ`}`,
);
process.exit(differ === 0 ? 0 : 1);
