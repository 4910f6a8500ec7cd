/**
 * bench/search: the in-process cost of a search (KnowledgeBase.search, the first page of 10 hits
 * with their snippets, what /v1/search and GraphQL search ask for) over the real corpus, beside
 * its floor: a bare FTS5 query over the same texts (an index of the edition's own texts, the same
 * tokenizer, the ranked page of 10, then their snippets; and the same with the snippets read in one
 * pass over the page's rowid range, as crkb reads them), crkb's own two FTS5 queries alone (its index of
 * the edition's texts, which also holds its search group's others for bm25's statistics: the ranked
 * 24 texts of bm25, snippets of the page; then with the OR query
 * search falls back to when no text has all the words) and, with --baseline DIR (another built checkout),
 * that checkout's search, in interleaved rounds. CPU time beside wall, per search.
 *
 * --compare DIR checks answers instead of timing them: some thousand searches (words, phrases,
 * typos, prefixes as typed, OR fallbacks, deep pages, old and new editions of every family) through
 * this checkout and DIR's, compared field by field (hits with their rules, glossary entries, scores,
 * snippets and highlights, escaped or not, and countedSearch's totals); exits 1 on a difference. It
 * counts the searches that differ only in scores, in the order of the same hits, or in which hits, and
 * the hits both answer whose snippet or highlight differs. --ignore-scores leaves scores out (a change
 * of ranking statistics changes every score, not the answers a reader sees).
 *
 *   node dist/bench/search.js [--db data/crkb.db] [--rounds 11] [--baseline DIR] [--compare DIR [--ignore-scores]]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openReadOnlyDb, openSearchDb } from '../src/db/openDb.js';
import type { KnowledgeBase } from '../src/query/KnowledgeBase.js';
import { median } from './processes.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
    rounds: { type: 'string', default: '11' },
    baseline: { type: 'string' },
    compare: { type: 'string' },
    'ignore-scores': { type: 'boolean', default: false },
  },
});
const dbFile = resolve(values.db);
const rounds = Number(values.rounds);

/** Search texts: keywords, glossary terms, common phrases and words (as people type them). */
const TEXTS = [
  'trample',
  'deathtouch',
  'flying',
  'combat damage',
  'first strike',
  'state-based actions',
  'token',
  'mana value',
  'the stack',
  'cast a spell',
  'copy of a spell',
  'legend rule',
  'commander',
  'planeswalker loyalty',
  'double strike',
  'protection from',
  'hexproof',
  'library',
  'exile',
  'enters the battlefield',
  'counter',
  'sacrifice',
  'mulligan',
  'layer',
  'ability',
  'the',
];
// (typo corrections are left out: the floor has none)

type Kb = KnowledgeBase;
const load = async (dir: string): Promise<Kb> => {
  const mod = (await import(pathToFileURL(resolve(dir, 'dist/src/query/KnowledgeBase.js')).href)) as { KnowledgeBase: typeof KnowledgeBase };
  return mod.KnowledgeBase.open(dbFile).warm();
};

const kb = await load(resolve(import.meta.dirname, '../..'));
if (values.compare) process.exit(compareWith(await load(resolve(values.compare))));
const base = values.baseline ? await load(resolve(values.baseline)) : null;
const cr = kb.editions().filter((e) => e.family === 'cr' && e.official);
// the newest edition (most searches), one in the middle and an old one
const editions = [cr.at(-1)!, cr[Math.floor(cr.length / 2)]!, cr[1]!];

/** The floor: per edition, an FTS5 index of exactly its texts. */
const src = openReadOnlyDb(dbFile);
const quote = (w: string): string => `"${w.replace(/"/g, '""')}"`;
const floors = editions.map((e) => {
  const db = openSearchDb();
  const texts = src
    .prepare(
      `SELECT t.id, t.body FROM texts t WHERE t.id IN (
         SELECT v.text_id FROM edition_rules r JOIN rule_versions v ON v.id = r.version_id WHERE r.edition_id = @e
         UNION SELECT j.value FROM edition_rules r JOIN rule_versions v ON v.id = r.version_id, json_each(v.examples) j WHERE r.edition_id = @e
         UNION SELECT g.text_id FROM edition_glossary eg JOIN glossary_versions g ON g.id = eg.version_id WHERE eg.edition_id = @e)`,
    )
    .raw(true)
    .all({ e: e.id }) as Array<[number, string]>;
  // (texts_fts reads its texts from `texts`: what snippets read)
  const insert = [db.prepare('INSERT INTO texts (id, body) VALUES (?, ?)'), db.prepare('INSERT INTO texts_fts (rowid, body) VALUES (?, ?)')];
  db.transaction(() => texts.forEach(([id, body]) => insert.forEach((s) => s.run(id, body))))();
  db.exec(`INSERT INTO texts_fts (texts_fts) VALUES ('optimize')`);
  // the ranked page, then its snippets (a snippet in the ranked query would be made for every match)
  const ranked = db.prepare('SELECT rowid FROM texts_fts WHERE texts_fts MATCH @q ORDER BY bm25(texts_fts), rowid LIMIT 10').pluck();
  const snippets = db
    .prepare(
      `SELECT rowid, snippet(texts_fts, 0, '<mark>', '</mark>', '…', 24) FROM texts_fts WHERE texts_fts MATCH @q AND rowid IN (SELECT value FROM json_each(@ids))`,
    )
    .raw(true);
  const q = (fts: string): Array<[number, string]> => snippets.all({ q: fts, ids: JSON.stringify(ranked.all({ q: fts })) }) as Array<[number, string]>;
  // the same, with the snippets read as crkb reads them (TextIndex.marks): one pass between the page's least and greatest rowid
  const inRange = db
    .prepare(
      `SELECT rowid, snippet(texts_fts, 0, '<mark>', '</mark>', '…', 24) FROM texts_fts WHERE texts_fts MATCH @q AND rowid BETWEEN @lo AND @hi AND +rowid IN (SELECT value FROM json_each(@ids))`,
    )
    .raw(true);
  const qRange = (fts: string): Array<[number, string]> => {
    const ids = ranked.all({ q: fts }) as number[];
    if (ids.length === 0) return [];
    return inRange.all({ q: fts, ids: JSON.stringify(ids), lo: BigInt(Math.min(...ids)), hi: BigInt(Math.max(...ids)) }) as Array<[number, string]>;
  };
  return { db, q, qRange, texts: texts.length };
});
src.close();

/** Per round: CPU and wall µs. */
interface Cost {
  cpu: number[];
  wall: number[];
}
const zero = (): Cost => ({ cpu: [], wall: [] });
const time = (c: Cost, f: () => void): void => {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  f();
  const t1 = process.hrtime.bigint();
  const d = process.cpuUsage(c0);
  c.cpu.push(d.user + d.system);
  c.wall.push(Number(t1 - t0) / 1000);
};
/** The median round (the machine is shared: a mean takes in other processes' bursts). */

let sink = 0;
const searchWith = (k: Kb) => (): void => {
  for (const e of editions) {
    for (const t of TEXTS) for (const h of k.search(e.id, t, { limit: 10 })) sink += h.snippet.length;
  }
};
const floorWith = (how: 'q' | 'qRange') => (): void => {
  floors.forEach((f) => {
    for (const t of TEXTS) {
      const words = t.match(/[\p{L}\p{N}]+/gu)!;
      for (const row of f[how](words.map(quote).join(' '))) sink += row[1].length;
    }
  });
};

// crkb's two FTS5 queries alone (its index of the edition and its group, as crkb ranks): the ranked
// 24 texts the first page's weighing reads, then the snippets of ten; no places, hits or typo checks.
// `or`: when no text has all the words, the ranked query again with any word, as search then asks
// (what the old edition's searches for words it never printed cost, which the floor does not ask)
const sqlAlone = (or: boolean) => (): void => {
  for (const e of editions) {
    const index = kb.snapshot.searchOf(e.id);
    for (const t of TEXTS) {
      const words = t.match(/[\p{L}\p{N}]+/gu)!.map(quote);
      let fts = words.join(' ');
      let rows = index.matches(fts, 24);
      if (or && rows.length === 0 && words.length > 1) rows = index.matches((fts = words.join(' OR ')), 24);
      const ids = rows.slice(0, 10).map(([id]) => id);
      for (const m of index.marks(fts, ids, '<mark>', '</mark>', 'snippet').values()) sink += m.length;
    }
  }
};

const rows: Array<[string, () => void, Cost]> = [
  ['bare FTS5 over the same texts (floor)', floorWith('q'), zero()],
  ['floor, snippets read in one rowid range', floorWith('qRange'), zero()],
  ["this checkout's FTS5 queries alone", sqlAlone(false), zero()],
  ['  the same, with the OR fallback search takes', sqlAlone(true), zero()],
  ['this checkout', searchWith(kb), zero()],
];
if (base) rows.push([`baseline ${values.baseline}`, searchWith(base), zero()]);
for (const [, f] of rows) f(); // warm every path once
for (let r = 0; r < rounds; r++) for (const [, f, c] of rows) time(c, f);

const per = TEXTS.length * editions.length;
console.log(
  `bench/search: ${TEXTS.length} texts × ${editions.length} editions (${editions.map((e, i) => `${e.effectiveDate}: ${floors[i]!.texts} texts`).join(', ')}), ${rounds} interleaved rounds (median), first page of 10 hits with snippets`,
);
console.log(`${'what'.padEnd(44)} ${'CPU/search'.padStart(12)} ${'wall/search'.padStart(12)} ${'× floor CPU'.padStart(12)}`);
const floorCpu = median(rows[0]![2].cpu) / per;
for (const [name, , c] of rows) {
  const cpu = median(c.cpu) / per;
  console.log(
    `${name.padEnd(44)} ${`${cpu.toFixed(0)} µs`.padStart(12)} ${`${(median(c.wall) / per).toFixed(0)} µs`.padStart(12)} ${`${(cpu / floorCpu).toFixed(2)}×`.padStart(12)}`,
  );
}
if (sink < 0) console.log(sink);
floors.forEach((f) => f.db.close());
kb.close();
base?.close();

/** Runs the searches of --compare through this checkout and `other`, prints the differences; the exit code. */
function compareWith(other: Kb): number {
  const texts = [
    ...TEXTS,
    'trampel',
    'deathtuch',
    'comabt damage',
    'planeswalkr',
    'sacrifise a creature',
    'tram',
    'deat',
    'combat da',
    'state-ba',
    'x',
    'zzzzqq',
    'copy spell token',
    'trample flying banding',
    'phasing',
    'mana burn',
    'interrupt',
    'the end of turn',
    'deck registration',
    'slow play',
    'marked cards',
    'unsporting conduct',
    'game loss',
    'warning',
    'looking at extra cards',
    'outside assistance',
    'decklist',
    '702.19',
    'rule 613',
    'Protection',
    'ÉCLAT ünïcode',
    '"quoted" OR NEAR(a b)',
  ];
  const editions = ['cr', 'mtr', 'ipg'].flatMap((family) => {
    const chain = kb.editions().filter((e) => e.family === family);
    return chain.filter((_, k) => k % Math.max(1, Math.floor(chain.length / 6)) === 0 || k === chain.length - 1);
  });
  const variants: Array<Parameters<Kb['search']>[2]> = [
    { limit: 10 },
    { limit: 10, prefix: true },
    { limit: 25, offset: 25 },
    { limit: 5, correct: false },
    { limit: 10, marks: { open: '**', close: '**' }, escape: (t: string) => t.replace(/[*_]/g, '\\$&') },
  ];
  type View = { error: string } | { total: number; capped: boolean; hits: Array<Record<string, unknown>> };
  const view = (k: Kb, id: number, text: string, opts: Parameters<Kb['search']>[2]): View => {
    try {
      const { hits, total, capped } = k.countedSearch(id, text, opts);
      return { total, capped, hits: hits.map((h) => ({ ...h, snippet: h.snippet, highlighted: h.highlighted })) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  /** A hit without its score (--ignore-scores) as JSON; `which`: only where it is (kind, text, rule, example, glossary entry, corrected query). */
  const hitText = (h: Record<string, unknown>, which = false): string => {
    const { score, snippet, highlighted, ...place } = h;
    return JSON.stringify(which ? place : values['ignore-scores'] ? { ...place, snippet, highlighted } : { ...place, score, snippet, highlighted });
  };
  const text = (v: View): string =>
    'error' in v ? `error: ${v.error}` : JSON.stringify({ total: v.total, capped: v.capped, hits: v.hits.map((h) => hitText(h)) });
  let runs = 0;
  let differ = 0;
  // of the searches that differ: the same hits in the same order (scores), the same hits in another order, other hits (or an error, a total)
  const kinds = { scores: 0, order: 0, hits: 0 };
  let shared = 0;
  let marksDiffer = 0;
  for (const e of editions) {
    for (const words of texts) {
      for (const opts of variants) {
        runs++;
        const a = view(kb, e.id, words, opts);
        const b = view(other, e.id, words, opts);
        const [ta, tb] = [text(a), text(b)];
        if (ta === tb) continue;
        differ++;
        if ('error' in a || 'error' in b || a.total !== b.total || a.capped !== b.capped) kinds.hits++;
        else {
          const [pa, pb] = [a.hits.map((h) => hitText(h, true)), b.hits.map((h) => hitText(h, true))];
          if (pa.join() === pb.join()) kinds.scores++;
          else if ([...pa].sort().join() === [...pb].sort().join()) kinds.order++;
          else kinds.hits++;
          // a hit both answer: its snippet and highlight are the same
          const marksOf = new Map(b.hits.map((h) => [hitText(h, true), `${String(h.snippet)}\n${String(h.highlighted)}`]));
          for (const h of a.hits) {
            const m = marksOf.get(hitText(h, true));
            if (m === undefined) continue;
            shared++;
            if (m !== `${String(h.snippet)}\n${String(h.highlighted)}`) marksDiffer++;
          }
        }
        if (differ <= 10)
          console.log(
            `differs: ${e.family} ${e.effectiveDate} ${JSON.stringify(words)} ${JSON.stringify(opts)}\n  this: ${ta.slice(0, 300)}\n  other: ${tb.slice(0, 300)}`,
          );
      }
    }
  }
  console.log(
    `bench/search --compare${values['ignore-scores'] ? ' --ignore-scores' : ''}: ${runs} searches (${texts.length} texts × ${editions.length} editions × ${variants.length} option sets), ${differ} differ: ${kinds.scores} only in scores, ${kinds.order} in the order of the same hits, ${kinds.hits} in which hits (or the count); of the ${shared} hits both answer in those, ${marksDiffer} differ in snippet or highlight`,
  );
  return differ === 0 ? 0 : 1;
}
