import { test } from 'node:test';
import assert from 'node:assert/strict';
import { corpusDb } from '../cli/corpusDb.js';
import { gql, sharedServer, type J } from './helpers.js';

// Citations, diffs and histories class a text change with one set of classes (none, typography,
// references, correction, substantive): a typography-only edit is "typography" in all of them, never
// a "changed" citation whose textChange is "none".
const shared = sharedServer(corpusDb(), { responseCache: false });

test('a typography-only edit (903.10a, 2021-06-18 to 2021-07-23) is typography in citations, diffs and histories, REST and GraphQL', async () => {
  const rest = (await (
    await fetch(`${shared.l.url}/v1/citations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ numbers: ['903.10a'], asOf: '2021-06-18', to: '2021-07-23' }),
    })
  ).json()) as J;
  assert.deepEqual([rest.citations[0].status, rest.citations[0].textChange], ['changed', 'typography']);
  const g = await gql(
    shared.built,
    `{
      citations(numbers: ["903.10a"], asOf: "2021-06-18", to: "2021-07-23") { citations { status textChange } }
      diff(from: "2021-06-18", to: "2021-07-23", section: "903.10a") { nodes { textChange } }
      history(number: "903.10a", edition: "2021-07-23") { steps { edition { effectiveDate } textChange } }
    }`,
  );
  assert.equal(g.json.errors, undefined, JSON.stringify(g.json.errors));
  const d = g.json.data;
  assert.deepEqual(d.citations.citations[0], { status: 'CHANGED', textChange: 'TYPOGRAPHY' });
  assert.deepEqual(
    d.diff.nodes.map((n: J) => n.textChange),
    ['TYPOGRAPHY'],
  );
  const step = d.history.steps.find((s: J) => s.edition.effectiveDate === '2021-07-23');
  assert.equal(step.textChange, 'TYPOGRAPHY');
  // the same rule unchanged is none everywhere
  const same = await gql(shared.built, '{ citations(numbers: ["702.19b"], asOf: "2021-06-18", to: "2021-07-23") { citations { status textChange } } }');
  assert.deepEqual(same.json.data.citations.citations[0], { status: 'SAME', textChange: 'NONE' });
});
