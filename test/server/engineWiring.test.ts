import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { buildServer } from '../../src/server/buildServer.js';
import { listen } from '../../src/server/listen.js';
import { corpusDb, skip } from '../cli/corpusDb.js';
import { gql, type J } from './helpers.js';

const dbFile = corpusDb();

const DIFF = `{ diff(from: "2021-06-18", to: "2021-07-23", section: "700", first: 500) {
  counts { references substantive }
  nodes { before { number } after { number text } renumbered textChange } } }`;
const HISTORY = `{ rule(number: "707.10", edition: "2021-07-23") { number lineageId
  history { lineageId steps { edition { effectiveDate } number renumbered textChange } } } }`;

test('diff and history through the real engine on a database ingested from two real editions', { skip }, async () => {
  {
    const db = openReadOnlyDb(dbFile());
        const built = await buildServer({ db });
    const l = await listen(built.app, 0);
    try {
      for (const via of ['in-process', 'http'] as const) {
        const run = async (query: string): Promise<J> => {
          if (via === 'in-process') return (await gql(built, query)).json;
          const res = await fetch(`${l.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query }),
          });
          assert.equal(res.status, 200);
          return res.json();
        };
        const d = await run(DIFF);
        assert.equal(d.errors, undefined, JSON.stringify(d.errors));
        const g = d.data.diff.nodes.find((c: J) => c.after?.number === '700.2g');
        assert.ok(g, `${via}: 700.2g among the changes of section 700`);
        assert.equal(g.textChange, 'references');
        assert.equal(g.before.number, '700.2g');
        assert.match(g.after.text, /707\.10/);
        assert.ok(d.data.diff.counts.references >= 1);

        const h = await run(HISTORY);
        assert.equal(h.errors, undefined, JSON.stringify(h.errors));
        const rule = h.data.rule;
        assert.equal(typeof rule.lineageId, 'number');
        assert.equal(rule.history.lineageId, rule.lineageId);
        const steps = rule.history.steps;
        assert.deepEqual(
          steps.slice(-2).map((s: J) => `${s.edition.effectiveDate} ${s.number}`),
          ['2021-06-18 706.10', '2021-07-23 707.10'],
          via,
        );
        assert.equal(steps[0].textChange, null);
        assert.equal(steps.at(-1).renumbered, true);
      }
    } finally {
      await l.close();
      db.close();
    }
  }
});
