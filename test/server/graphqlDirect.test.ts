import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphqlEndpoint, type GraphqlInit } from '../../src/server/graphqlEndpoint.js';
import { DEFAULT_LIMITS, type ExecutorChoice } from '../../src/server/limits.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { fixtureDb } from './fixtures.js';

// The direct path of a plain JSON POST (GraphqlEndpoint.direct) against yoga's whole fetch layer
// (viaFetch), on the same endpoint: every limit, error and status must come out the same.
const kb = new KnowledgeBase(fixtureDb());
const costs: Array<{ path: string; cost: number }> = [];
let path = '';
// records the cost each operation was judged at: the heavy-pool choice sees the same cost on both paths
const executorFor: ExecutorChoice = (cost) => {
  costs.push({ path, cost });
  return undefined;
};
const endpoint = new GraphqlEndpoint({ kb: () => kb, limits: { ...DEFAULT_LIMITS, maxAnswerBytes: 800 }, timeLimitMs: 5000, executorFor });

const json = (body: unknown, headers: GraphqlInit['headers'] = { 'content-type': 'application/json' }): GraphqlInit => ({
  method: 'POST',
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');
const nest = (depth: number) => `{ rule(number: "702.19b") { ${'parent { '.repeat(depth)}number${' }'.repeat(depth)} } }`;

/** Requests the direct path answers: each limit and error kind of the pipeline. */
const TAKEN: Array<[string, unknown]> = [
  ['a query with variables', { query: 'query($n: String!) { rule(number: $n) { number text parent { number } } }', variables: { n: '702.19b' } }],
  ['an operation picked by name', { query: 'query A { editions { effectiveDate } } query B { rule(number: "100.1") { number } }', operationName: 'B' }],
  ['null variables and operationName', { query: '{ rule(number: "100.1") { number } }', variables: null, operationName: null }],
  ['too deep', { query: nest(12) }],
  ['too many aliases, __typename included', { query: `{ ${aliases(31, '__typename')} }` }],
  ['too many tokens', { query: `{ ${aliases(700, 'x: __typename')} }` }],
  ['too many directives', { query: `{ rule(number: "100.1") { ${aliases(51, 'number @include(if: true)')} } }` }],
  [
    'over the cost with its variables',
    { query: 'query($f: Int) { a: search(query: "x", first: $f) { nodes { snippet rule { history { lineageId } } } } }', variables: { f: 100 } },
  ],
  ['first above its maximum, as a variable', { query: 'query($f: Int) { search(query: "trample", first: $f) { nodes { kind } } }', variables: { f: 101 } }],
  ['a syntax error', { query: '{ rule(number: "100.1") { number }' }],
  ['a validation error', { query: '{ rule(number: "100.1") { nosuchfield } }' }],
  ['a variable of the wrong type', { query: 'query($n: String!) { rule(number: $n) { number } }', variables: { n: 5 } }],
  ['a missing variable', { query: 'query($n: String!) { rule(number: $n) { number } }' }],
  ['an unknown operation name', { query: '{ rule(number: "100.1") { number } }', operationName: 'Nope' }],
  ['two operations, none named', { query: 'query A { editions { effectiveDate } } query B { editions { family } }' }],
  ['a mutation', { query: 'mutation { x }' }],
  ['partial data: one field an input error', { query: '{ a: rule(number: "702.19b") { number } b: rule(number: "abc") { number } }' }],
  ['an answer over the byte cap', { query: '{ glossaryTerms { term definition } editions { effectiveDate title parts { number title } } }' }],
  ['a body with a charset', { query: '{ editions { effectiveDate } }' }],
];

test('the direct path answers exactly as yoga does: limits, costs, errors, statuses, partial data', async () => {
  for (const [name, body] of TAKEN) {
    const headers: GraphqlInit['headers'] =
      name === 'a body with a charset'
        ? { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' }
        : { 'content-type': 'application/json' };
    costs.length = 0;
    path = 'direct';
    const direct = await endpoint.direct('/graphql', json(body, headers));
    path = 'yoga';
    const yoga = await endpoint.viaFetch('/graphql', json(body, headers));
    assert.ok(direct, `${name}: taken by the direct path`);
    if (name === 'a query with variables') {
      assert.equal(JSON.parse(direct.body).data.rule.number, '702.19b');
      assert.equal(costs.length, 2, 'the executor choice was asked on both paths');
    }
    assert.deepEqual(direct, yoga, name);
    // the cost the heavy-pool choice saw, when the operation got that far
    assert.deepEqual(
      costs.filter((c) => c.path === 'direct').map((c) => c.cost),
      costs.filter((c) => c.path === 'yoga').map((c) => c.cost),
      `${name}: costs`,
    );
  }
  const codes = await Promise.all(
    TAKEN.map(async ([, body]) => JSON.parse((await endpoint.fetch('/graphql', json(body))).body) as { errors?: Array<{ extensions: { code: string } }> }),
  );
  // the cases do reach the limits they name (a table of passing requests would prove nothing)
  const seen = new Set(codes.flatMap((c) => (c.errors ?? []).map((e) => e.extensions.code)));
  for (const code of ['TOO_COMPLEX', 'BAD_USER_INPUT', 'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'RESPONSE_TOO_LARGE'])
    assert.ok(seen.has(code), `${code} in ${[...seen].join(', ')}`);
});

test('the direct path leaves every other request to yoga, whose answer fetch returns', async () => {
  const q = { query: '{ rule(number: "100.1") { number } }' };
  const declined: Array<[string, GraphqlInit]> = [
    ['graphql-response+json', json(q, { 'content-type': 'application/json', accept: 'application/graphql-response+json' })],
    ['a media type in capitals', json(q, { 'content-type': 'Application/JSON' })],
    ['extensions (a persisted query)', json({ ...q, extensions: { persistedQuery: { version: 1, sha256Hash: 'ab' } } })],
    ['a body that is not JSON', json('{"query": ')],
    ['a JSON array (a batch)', json([q])],
    ['no query (yoga refuses its parameters)', json({ variables: {} })],
    ['an unexpected parameter', json({ ...q, other: 1 })],
    ['a GET', { method: 'GET', headers: { accept: 'application/json' } }],
  ];
  for (const [name, init] of declined) {
    assert.equal(await endpoint.direct('/graphql', init), null, name);
    assert.deepEqual(await endpoint.fetch('/graphql', init), await endpoint.viaFetch('/graphql', init), name);
  }
  // and the refusals are yoga's own
  const none = await endpoint.fetch('/graphql', json({ variables: {} }));
  assert.match(none.body, /Must provide query string/);
});
