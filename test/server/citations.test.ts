import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureDbWithLineage } from './fixtures.js';
import { fixtureServer, gql, type J } from './helpers.js';

let srv: Awaited<ReturnType<typeof fixtureServer>>;
let url = '';
before(async () => {
  srv = await fixtureServer({}, fixtureDbWithLineage());
  url = srv.url;
});
after(() => srv.close());

const post = (body: unknown, query = '') =>
  fetch(`${url}/v1/citations${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('POST /v1/citations checks a text against a later edition', async () => {
  const res = await post({ text: 'See rule 706.10 and rule 500.1.', asOf: '2021-06-18' });
  assert.equal(res.status, 200);
  const j = (await res.json()) as J;
  assert.equal(j.asOf, '2021-06-18');
  assert.equal(j.to, '2021-07-23');
  assert.deepEqual(j.citations[0], {
    cited: '706.10',
    family: 'cr',
    title: null,
    then: { number: '706.10', text: 'To copy a spell, activated ability, or triggered ability means to put a copy of it onto the stack.' },
    status: 'moved',
    now: { number: '707.10', text: 'To copy a spell, activated ability, or triggered ability means to put a copy of it onto the stack.' },
    goneSince: null,
    textChange: 'none',
    titleMatches: null,
  });
  assert.equal(j.citations[1].status, 'unknown');
});

test('POST /v1/citations takes numbers, a set of editions and Markdown; bad input is a 400 naming the argument', async () => {
  const gone = (await (await post({ numbers: ['500.1'], asOf: '2008-10-01', to: '2021-06-18' })).json()) as J;
  assert.equal(gone.citations[0].status, 'gone');
  assert.equal(gone.citations[0].goneSince, '2021-06-18');
  const md = await post({ numbers: ['706.10'], asOf: '2021-06-18', format: 'markdown' });
  assert.match(md.headers.get('content-type')!, /text\/markdown/);
  assert.match(await md.text(), /\| 706\.10 \| moved \| 707\.10\. \|/);
  for (const [body, argument] of [
    [{ text: 'rule 706.10' }, 'asOf'],
    [{ numbers: 'x', asOf: '2021-06-18' }, 'numbers'],
    [{ text: 'rule 706.10', asOf: 'someday' }, 'asOf'],
    [[1, 2], 'body'],
  ] as const) {
    const res = await post(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(((await res.json()) as J).error.argument, argument);
  }
  const broken = await fetch(`${url}/v1/citations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":' });
  assert.equal(broken.status, 400);
});

test('GraphQL citations answers the same report', async () => {
  const r = await gql(
    srv,
    `{ citations(text: "rule 706.10 (Copying Objects)", asOf: "2021-06-18") {
    asOf { effectiveDate } to { effectiveDate } markdown
    citations { cited title status then { number } now { number text } goneSince textChange titleMatches } } }`,
  );
  assert.equal(r.status, 200, r.text);
  const c = r.json.data.citations;
  assert.equal(c.to.effectiveDate, '2021-07-23');
  assert.deepEqual(c.citations[0], {
    cited: '706.10',
    title: 'Copying Objects',
    status: 'MOVED',
    then: { number: '706.10' },
    now: { number: '707.10', text: 'To copy a spell, activated ability, or triggered ability means to put a copy of it onto the stack.' },
    goneSince: null,
    textChange: 'NONE',
    titleMatches: true,
  });
  assert.match(c.markdown, /\| 706\.10 \| moved \|/);
  const bad = await gql(srv, '{ citations(numbers: ["1x"], asOf: "2021-06-18") { to { effectiveDate } } }');
  assert.equal(bad.json.errors![0].extensions.code, 'BAD_USER_INPUT');
});
