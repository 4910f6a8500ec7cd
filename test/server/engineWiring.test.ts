import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { buildServer } from '../../src/server/buildServer.js';
import { listen } from '../../src/server/listen.js';
import { corpusDb } from '../cli/corpusDb.js';
import { gql, type J } from './helpers.js';

const dbFile = corpusDb();

const DIFF = `{ diff(from: "2021-06-18", to: "2021-07-23", section: "700", first: 500) {
  counts { references substantive }
  nodes { before { number } after { number text } renumbered textChange } } }`;
const HISTORY = `{ rule(number: "707.10", edition: "2021-07-23") { number lineageId
  history { lineageId steps { edition { effectiveDate } number renumbered textChange } } } }`;

test('diff and history through the real engine on a database ingested from two real editions', async () => {
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
        assert.equal(g.textChange, 'REFERENCES');
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

test('glossary history and an edition’s unresolved and stale references through GraphQL', async () => {
  const db = openReadOnlyDb(dbFile());
  const built = await buildServer({ db });
  try {
    const h = (await gql(built, '{ glossaryHistory(term: "active player") { terms first last steps { number edition { effectiveDate } } } }')).json;
    assert.equal(h.errors, undefined, JSON.stringify(h.errors));
    assert.deepEqual(h.data.glossaryHistory.terms, ['Active Player']);
    assert.deepEqual(
      h.data.glossaryHistory.steps.map((s: J) => s.edition.effectiveDate),
      ['2009-05-01', '2009-07-11', '2021-06-18', '2021-07-23'],
    );
    assert.equal((await gql(built, '{ glossaryHistory(term: "no such term") { terms } }')).json.data.glossaryHistory, null);
    const r = (await gql(built, '{ edition(date: "2009-07-11") { danglingReferences { at target kind mention } staleReferences { target cited title } } }'))
      .json;
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const dangling = r.data.edition.danglingReferences as J[];
    assert.ok(dangling.length > 0 && dangling.every((d) => typeof d.mention === 'string' && d.mention.length > 0));
    assert.ok(Array.isArray(r.data.edition.staleReferences));
  } finally {
    built.close();
    db.close();
  }
});
