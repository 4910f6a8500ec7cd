import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { buildServer } from '../../src/server/buildServer.js';
import { listen } from '../../src/server/listen.js';
import { gql, type J } from './helpers.js';

const CORPUS = path.resolve(process.cwd(), '../shared/corpus');
const skip = !fs.existsSync(CORPUS) && 'corpus not found';

const DIFF = `{ diff(from: "2021-06-18", to: "2021-07-23", section: "700", first: 500) {
  counts { references substantive }
  nodes { before { number } after { number text } renumbered textChange } } }`;
const HISTORY = `{ rule(number: "707.10", edition: "2021-07-23") { number lineageId
  history { lineageId steps { edition { effectiveDate } number renumbered textChange } } } }`;

test('diff and history through the real engine on a database ingested from two real editions', { skip }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-wiring-'));
  const dbFile = path.join(dir, 'two.db');
  try {
    await runIngest({
      inputs: expandInputs([path.join(CORPUS, 'rulesraker/2021-06-09.txt'), path.join(CORPUS, 'rulesraker/2021-07-12.txt')]),
      dbFile,
    });
    const db = openReadOnlyDb(dbFile);
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
          steps.map((s: J) => `${s.edition.effectiveDate} ${s.number}`),
          ['2021-06-18 706.10', '2021-07-23 707.10'],
          via,
        );
        assert.equal(steps[0].textChange, null);
        assert.equal(steps[1].renumbered, true);
      }
    } finally {
      await l.close();
      db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
