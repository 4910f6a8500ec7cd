#!/usr/bin/env node
/* global fetch */
// Writes what every face answers to a fixed list of requests (CLI, REST, GraphQL, web pages, feeds)
// into a folder, one file per request, so two builds can be compared with `diff -r`:
//
//   node scripts/snapshotOutputs.mjs --db data/crkb.db --out /tmp/before      (on the old build)
//   node scripts/snapshotOutputs.mjs --db data/crkb.db --out /tmp/after       (on the new one)
//   diff -r /tmp/before /tmp/after
//
// Reads the built code in dist/ of the checkout it is run from (`npm run build` first).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { db: { type: 'string', default: 'data/crkb.db' }, out: { type: 'string' } } });
if (!values.out) {
  console.error('usage: node scripts/snapshotOutputs.mjs --db FILE --out DIR');
  process.exit(1);
}
const db = resolve(values.db);
const out = resolve(values.out);
mkdirSync(out, { recursive: true });
const root = resolve(new URL('..', import.meta.url).pathname);
const slug = (s) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 150);
let n = 0;
const save = (face, name, body) => {
  writeFileSync(join(out, `${face}--${slug(name)}`), body);
  n++;
};

const cli = [
  ['rule', '702.19', '--examples'],
  ['rule', '704.5'],
  ['rule', '601.2a-h'],
  ['history', '707.10'],
  ['history', '702.19b'],
  ['history', '613'],
  ['diff', '2021-06-18', '2021-07-23', '--markdown'],
  ['diff', '2021-06-18', '2021-07-23', '--json'],
  ['diff', '2009-05-01', '2009-10-01', '--renumbering'],
  ['refs', '707.10', '--incoming'],
  ['refs', '--dangling', '--edition', '2021-07-23'],
  ['search', 'combat damage', '--edition', '2009-10-01'],
  ['search', 'trample'],
  ['editions'],
];
for (const argv of cli) {
  const r = spawnSync(process.execPath, [join(root, 'bin/crkb.js'), ...argv, '--db', db], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  save('cli', argv.join(' '), `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
}

process.env.NODE_ENV ??= 'production';
const { buildServer } = await import(join(root, 'dist/src/server/buildServer.js'));
const { listen } = await import(join(root, 'dist/src/server/listen.js'));
const built = await buildServer({ dbFile: db, publicUrl: 'https://crkb.example', responseCache: false, heavyThreads: 0 });
const l = await listen(built.app, 0);
const lookups = [
  'trample',
  'CR 702.19b',
  '702.19B',
  'cr702.19b',
  '!cr 702.19b',
  '702,19b',
  '702.19b)',
  'define dies',
  'what is a token',
  'sba',
  'etb',
  'apnap',
  'cda',
  'p/t',
  'cmc',
  '702.19b ex 2',
  '601.2a-h',
  'legend rule',
  'protection from red',
  'how do layers work',
  'deathtouch trample',
  'comabt damage',
  'first strike',
  'ward',
  'mulligan',
  'layers',
  '706.10',
  '999.9',
  '__proto__',
  'constructor',
];
const urls = [];
for (const q of lookups) {
  for (const f of ['json', 'text', 'markdown']) urls.push(`/v1/lookup?q=${encodeURIComponent(q)}&format=${f}`);
}
urls.push(
  '/v1/lookup?q=trample&edition=2010-01-01&format=text',
  '/v1/lookup?q=601.2a-h&examples=1',
  '/v1/rules/702.19b?edition=2010-01-01',
  '/v1/rules/707.10',
  '/v1/search?q=combat%20damage&format=text',
  '/v1/search?q=trample&format=json&limit=20',
  '/v1/search?q=trample&format=markdown&edition=2009-10-01',
  '/v1/editions/2021-07-23.json',
  '/',
  '/cr/latest',
  '/cr/2021-07-23',
  '/cr/latest/702',
  '/cr/latest/702.19',
  '/cr/latest/613',
  '/cr/latest/glossary',
  '/cr?number=702.19b',
  '/cr/latest/706.10',
  '/search?q=trample&edition=latest',
  '/search?q=comabt+damage',
  '/diff',
  '/diff/2021-06-18/2021-07-23',
  '/diff/2021-06-18/2021-07-23?view=side&section=702',
  '/diff/2009-05-01/2009-10-01',
  '/diff/2010-07-16/latest?section=613',
  '/history/702.19b?edition=latest',
  '/history/707.10',
  '/history/613',
  '/feed.atom',
  '/feed/702.19b.atom',
  '/openapi.json',
);
const queries = [
  '{ rule(number: "700.2g", edition: "2021-07-01") { number text edition { effectiveDate } lineageId references { targetNumber target { number text } } referencedBy { number } } }',
  '{ diff(from: "2021-06-18", to: "2021-07-23", section: "700") { counts { added removed renumbered references substantive } nodes { before { number } after { number } renumbered textChange segments { op text } } } }',
  '{ history(number: "707.10") { lineageId steps { edition { effectiveDate } number renumbered textChange } } }',
  '{ search(query: "combat damage", first: 10) { nodes { kind snippet rule { number } glossary { term } } pageInfo { hasNextPage endCursor } } }',
  '{ lookup(q: "define dies") { kind matched rules { number text } glossary { term definition } } }',
  '{ editions { effectiveDate setCode setName official ruleCount } }',
  '{ citations(text: "See rule 706.10 and 702.19 (Trample).", asOf: "2021-06-18") { citations { cited status now { number } textChange } markdown } }',
  '{ glossaryTerms(edition: "2021-07-23") { term } }',
];
for (const u of urls) {
  const r = await fetch(l.url + u);
  save('http', u, `${r.status} ${r.headers.get('content-type')}\n${r.headers.get('cache-control')}\n\n${await r.text()}`);
}
for (const q of queries) {
  const r = await fetch(l.url + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) });
  save('graphql', q, `${r.status}\n${JSON.stringify(await r.json(), null, 1)}`);
}
const cite = await fetch(l.url + '/v1/citations', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ text: 'A copy of a spell goes on the stack (rule 706.10). See 702.19 (Trample).', asOf: '2021-06-18' }),
});
save('http', 'POST /v1/citations', `${cite.status}\n${await cite.text()}`);
await l.close();
await built.close();
console.log(`${n} answers written to ${out}`);
