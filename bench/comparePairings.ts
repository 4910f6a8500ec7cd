/**
 * Compares the lineage pairings of two databases (say, built before and after an aligner change):
 * for every neighbouring pair of official editions, how many `to` rules continue a different `from`
 * rule (or none) in one database than in the other. With --list FROM, prints every changed pair of
 * the transitions starting at those dates (comma-separated) for reading by hand.
 * Usage: node dist/bench/comparePairings.js OLD.db NEW.db [--family cr] [--list 2009-05-01,2016-08-26]
 */
import { parseArgs } from 'node:util';
import { Snapshot } from '../src/db/Snapshot.js';
import { openReadOnlyDb } from '../src/db/openDb.js';
import { pairLineages } from '../src/engine/diffEditions.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { family: { type: 'string', default: 'cr' }, list: { type: 'string', default: '' } },
});
if (positionals.length !== 2) throw new Error('usage: comparePairings OLD.db NEW.db [--family cr] [--list DATE,DATE]');
const family = values.family === 'rulings' ? 'rulings' : 'cr';
const listed = new Set(values.list.split(',').filter((s) => s !== ''));

interface Side {
  reader: Snapshot;
  chain: Array<{ id: number; effectiveDate: string }>;
}
const open = (file: string): Side => {
  const reader = new Snapshot(openReadOnlyDb(file));
  return { reader, chain: reader.editions.filter((e) => e.family === family && e.official) };
};
const [oldDb, newDb] = positionals.map(open) as [Side, Side];

// For each `to` rule number: the `from` number it continues, or null (new); and the texts by number.
function pairsOf(s: Side, k: number): { pairs: Map<string, string | null>; from: Map<string, string>; to: Map<string, string> } {
  const a = s.reader.ruleIds(s.chain[k - 1]!.id);
  const b = s.reader.ruleIds(s.chain[k]!.id);
  const p = pairLineages(a.lineages, b.lineages);
  const pairs = new Map<string, string | null>();
  b.numbers.forEach((n, i) => pairs.set(n, p[i]! < 0 ? null : a.numbers[p[i]!]!));
  const texts = (e: typeof a): Map<string, string> => {
    if (!listed.has(s.chain[k - 1]!.effectiveDate)) return new Map();
    return new Map(e.numbers.map((n, x) => [n, s.reader.text(s.reader.version(e.versions[x]!).textId)]));
  };
  return { pairs, from: texts(a), to: texts(b) };
}
const short = (t: string | undefined): string => (t ?? '').replace(/\s+/g, ' ').slice(0, 90);

const dates = (s: Side): string => s.chain.map((e) => e.effectiveDate).join(',');
if (dates(oldDb) !== dates(newDb)) throw new Error('the two databases hold different edition chains');
let total = 0;
let changedTotal = 0;
for (let k = 1; k < oldDb.chain.length; k++) {
  const { pairs: po, from, to } = pairsOf(oldDb, k);
  const pn = pairsOf(newDb, k).pairs;
  const changed: string[] = [];
  for (const [n, o] of po) {
    const m = pn.get(n) ?? null;
    total++;
    if (o === m) continue;
    changed.push(`  ${n.padEnd(9)} old: ${(o ?? '(new)').padEnd(9)} new: ${m ?? '(new)'}`);
    if (to.size > 0) {
      changed.push(`      is: ${short(to.get(n))}`);
      if (o !== null) changed.push(`     old: ${short(from.get(o))}`);
      if (m !== null) changed.push(`     new: ${short(from.get(m))}`);
    }
  }
  const date = oldDb.chain[k - 1]!.effectiveDate;
  const n = changed.filter((l) => l.startsWith('  ') && !l.startsWith('   ')).length;
  changedTotal += n;
  if (n > 0 || listed.has(date)) console.log(`${date} → ${oldDb.chain[k]!.effectiveDate}: ${n} of ${po.size} pairs changed`);
  if (listed.has(date)) for (const l of changed) console.log(l);
}
console.log(`total: ${changedTotal} of ${total} pairs changed`);
for (const s of [oldDb, newDb]) s.reader.db.close();
