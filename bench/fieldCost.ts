/**
 * bench/fieldCost: what the costly GraphQL fields really cost on the full archive, per item, beside
 * the cost table (src/server/limits.ts, units of 0.1 ms). Each query runs through the server's
 * GraphQL pipeline in-process, warm (the first run is not counted), over varied inputs.
 *
 *   node dist/bench/fieldCost.js [--db data/crkb.db] [--runs 30]
 */
import { parseArgs } from 'node:util';
import { buildServer } from '../src/server/buildServer.js';
import { FIELD_COST, FIELD_FLOOR } from '../src/server/limits.js';

const { values } = parseArgs({ options: { db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' }, runs: { type: 'string', default: '30' } } });
const s = await buildServer({ dbFile: values.db, responseCache: false, limits: { maxCost: 1e9, maxAliases: 1e9, maxAnswerBytes: 1e9 } });
const kb = s.kb();
const eds = kb.editions().filter((e) => e.family === 'cr' && e.official);
const latest = eds.at(-1)!;
const numbers = kb.numbers(latest.id);
const runs = Number(values.runs);
const glossarySize = kb.glossary(latest.id).length;

/** [field, query for input i, items the query touches]. */
const cases: Array<[string, (i: number) => string, number]> = [
  ['Query.rule', (i) => `{ rule(number: "${numbers[(i * 97) % numbers.length]}") { number } }`, 1],
  [
    'Query.search',
    (i) =>
      `{ search(query: "${['trample', 'combat damage', 'ability', 'token', 'the'][i % 5]}", edition: "${eds[(i * 7) % eds.length]!.effectiveDate}") { nodes { kind } } }`,
    1,
  ],
  ['SearchHit.snippet', (i) => `{ search(query: "${['trample', 'combat damage', 'ability', 'token'][i % 4]}", first: 20) { nodes { snippet } } }`, 20],
  ['Query.lookup', (i) => `{ lookup(q: "${['trample', 'dies', '702.19b', '704.5', 'tramlpe', 'state-based actions'][i % 6]}") { kind } }`, 1],
  ['Query.history', (i) => `{ history(number: "${numbers[(i * 131) % numbers.length]}") { lineageId } }`, 1],
  [
    'Query.diff',
    (i) =>
      `{ diff(from: "${eds[(i * 13) % eds.length]!.effectiveDate}", to: "${eds[(i * 13 + 1 + (i % 40)) % eds.length]!.effectiveDate}") { counts { added } } }`,
    1,
  ],
  ['Rule.referencedBy', (i) => `{ rules(first: 100, after: null, section: "${[1, 2, 3, 5, 6, 7][i % 6]}") { nodes { referencedBy { number } } } }`, 100],
  ['Rule.children', (i) => `{ rules(first: 100, section: "${[1, 2, 3, 5, 6, 7][i % 6]}") { nodes { children { number } } } }`, 100],
  ['Query.keywords', (i) => `{ keywords(edition: "${eds[i % eds.length]!.effectiveDate}") { name } }`, 1],
  ['Query.glossaryTerms', (i) => `{ glossaryTerms(edition: "${eds[i % eds.length]!.effectiveDate}") { term } }`, 1],
  // the least a field costs (FIELD_FLOOR): resolving and serializing one more field of a list's entries
  ['(floor) __typename', (i) => `{ glossaryTerms { ${Array.from({ length: 20 }, (_, k) => `a${k + i}: __typename`).join(' ')} } }`, 20 * glossarySize],
];
console.log(`bench/fieldCost: ${values.db}, ${runs} runs per field (warm), ms per item; table: units of 0.1 ms`);
console.log(
  `${'field'.padEnd(22)} ${'median ms'.padStart(10)} ${'max ms'.padStart(8)} ${'cpu ms'.padStart(8)} ${'table'.padStart(6)} ${'table ms'.padStart(9)}`,
);
for (const [field, query, items] of cases) {
  await s.graphql(query(0));
  const ms: number[] = [];
  const c0 = process.cpuUsage();
  for (let i = 1; i <= runs; i++) {
    const t = performance.now();
    const r = await s.graphql(query(i));
    if (r.status !== 200) throw new Error(`${field}: ${r.body.slice(0, 200)}`);
    ms.push((performance.now() - t) / items);
  }
  const c = process.cpuUsage(c0);
  ms.sort((a, b) => a - b);
  const unit = field.startsWith('(floor)') ? FIELD_FLOOR : (FIELD_COST[field]?.cost ?? NaN);
  console.log(
    `${field.padEnd(22)} ${ms[Math.floor(ms.length / 2)]!.toFixed(4).padStart(10)} ${ms.at(-1)!.toFixed(4).padStart(8)} ${((c.user + c.system) / 1000 / runs / items).toFixed(4).padStart(8)} ${String(unit).padStart(6)} ${(unit * 0.1).toFixed(unit < 1 ? 3 : 1).padStart(9)}`,
  );
}
await s.close();
