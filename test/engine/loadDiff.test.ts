import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusDb, skip } from '../cli/corpusDb.js';
import { Lineage } from '../../src/db/Lineage.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { diffEditions } from '../../src/engine/diffEditions.js';
import type { DiffOptions, EditionDiff } from '../../src/engine/diffEditions.js';
import { loadDiff } from '../../src/engine/loadDiff.js';

const db = corpusDb();

test('loadDiff (pairs first, reads only changed rules) equals diffEditions on whole editions, every pair both ways', { skip }, () => {
  const conn = openReadOnlyDb(db());
  try {
    const lineage = new Lineage(conn);
    const chain = lineage.chain('cr');
    assert.deepEqual(
      chain.map((e) => e.effectiveDate),
      ['2009-05-01', '2009-07-11', '2021-06-18', '2021-07-23'],
    );
    const whole = new Map(chain.map((e) => [e.id, lineage.diffEdition(e.id, e.effectiveDate)]));
    const variants: Array<DiffOptions & { rulesOnly?: boolean }> = [
      { segments: false, rulesOnly: true },
      { segments: false },
      { section: '7', segments: false, rulesOnly: true },
      { section: '702', kinds: ['references', 'typography'], segments: false },
      { kinds: ['added', 'removed'], segments: false },
    ];
    let compared = 0;
    let linked = 0;
    const seen = { removed: 0, references: 0, examples: 0, glossary: 0 };
    for (const from of chain) {
      for (const to of chain) {
        // every option on neighbouring editions (either way), the plain --json load on every pair
        const near = Math.abs(chain.indexOf(from) - chain.indexOf(to)) <= 1;
        for (const { rulesOnly, ...opts } of near ? variants : variants.slice(0, 1)) {
          const fast = loadDiff(conn, from, to, { ...opts, ...(rulesOnly ? { rulesOnly } : {}) });
          // split and merge links are read from storage, which the whole-edition oracle does not
          for (const c of fast.changes) {
            if (c.mergedInto !== undefined || c.splitFrom !== undefined) linked++;
            delete c.mergedInto;
            delete c.splitFrom;
          }
          let plain: EditionDiff = diffEditions(whole.get(from.id)!, whole.get(to.id)!, opts);
          if (rulesOnly) plain = { ...plain, examples: [], glossary: [] };
          const what = `${from.effectiveDate} -> ${to.effectiveDate} ${JSON.stringify({ rulesOnly, ...opts })}`;
          // (deepEqual on thousands of changes takes seconds: it only runs to show a difference)
          if (JSON.stringify(fast) !== JSON.stringify(plain)) assert.deepEqual(fast, plain, what);
          if (from.id === to.id) assert.equal(fast.counts.total, 0, what);
          compared += fast.counts.total;
          seen.removed += fast.counts.removed;
          seen.references += fast.counts.references;
          seen.examples += fast.examples.length;
          seen.glossary += fast.glossary.length;
        }
      }
    }
    assert.ok(compared > 5000, `${compared} changes compared`);
    assert.ok(linked > 0, 'the Magic 2010 rewrite has merges and splits');
    for (const [k, n] of Object.entries(seen)) assert.ok(n > 0, `no ${k} changes compared`);
  } finally {
    conn.close();
  }
});

const fragmentDb = corpusDb(['rulesraker/2021-07-12.txt', '../seeds/000_fd7f68269be61ced.txt']);

test('a diff against an unofficial fragment edition pairs its rules by text', { skip }, () => {
  const conn = openReadOnlyDb(fragmentDb());
  try {
    const [official] = new Lineage(conn).chain('cr');
    const fragment = conn.prepare('SELECT id, effective_date AS effectiveDate FROM editions WHERE official = 0').get() as { id: number; effectiveDate: string };
    assert.ok(official && fragment, 'one official edition and the fragment');
    for (const [from, to] of [[official!, fragment], [fragment, official!]] as const) {
      const d = loadDiff(conn, from, to, { segments: false, rulesOnly: true });
      // the fragment's 700.1 and 700.2a read as in 2021-07-23: not added, not removed
      const touched = d.changes.filter((c) => c.after?.number === '700.1' || c.before?.number === '700.1' || c.after?.number === '700.2a');
      assert.deepEqual(touched, [], `${from.effectiveDate} -> ${to.effectiveDate}`);
      // rules added to 700 after 2021 (700.12 outlaws) have no counterpart
      const outlaw = d.changes.find((c) => (c.after ?? c.before)?.number === '700.12');
      assert.ok(outlaw && (outlaw.before === null || outlaw.after === null));
    }
  } finally {
    conn.close();
  }
});

const mergeDb = corpusDb(['mtg-cr/CR-2008-05-01.txt', 'mtg-cr/CR-2008-07-15.txt', 'mtg-cr/CR-2008-10-01.txt']);

test('a far diff follows merge links: 407.3 is "merged into 402.9", not only removed', { skip }, () => {
  const conn = openReadOnlyDb(mergeDb());
  try {
    const chain = new Lineage(conn).chain('cr');
    assert.deepEqual(chain.map((e) => e.effectiveDate), ['2008-05-01', '2008-07-15', '2008-10-01']);
    for (const to of [chain[1]!, chain[2]!]) {
      const d = loadDiff(conn, chain[0]!, to, { segments: false, rulesOnly: true });
      const gone = d.changes.find((c) => c.before?.number === '407.3');
      assert.equal(gone?.after, null);
      assert.equal(gone?.mergedInto, '402.9', `2008-05-01 -> ${to.effectiveDate}`);
    }
    // a reverse diff does not claim it
    const rev = loadDiff(conn, chain[2]!, chain[0]!, { segments: false, rulesOnly: true });
    assert.ok(rev.changes.every((c) => c.mergedInto === undefined));
  } finally {
    conn.close();
  }
});
