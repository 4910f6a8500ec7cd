import { test } from 'node:test';
import assert from 'node:assert/strict';
import { acceptsPlainJson, plainParams } from '../../src/server/FastGraphql.js';
import { fixtureServer } from './helpers.js';

const QUERIES: Array<[string, Record<string, unknown>?]> = [
  ['{ rule(number: "702.19b") { number text examples parent { number } references { targetNumber target { number } } referencedBy { number } } }'],
  ['query($n: String!) { rule(number: $n, edition: "2021-06-18") { number ancestors { number } children { number } } }', { n: '702.19' }],
  ['{ search(query: "trample", first: 3) { nodes { kind snippet highlighted rule { number } } pageInfo { hasNextPage endCursor } } }'],
  ['{ rules(section: "702", first: 2) { nodes { number } pageInfo { endCursor } } editions { effectiveDate } }'],
  ['{ lookup(q: "trample") { kind matched rules { number } } }'],
  // errors: answered by yoga either way
  ['{ rule(number: "999.99") { number } }'],
  ['{ rule(number: "x y") { number } }'],
  ['{ rule(number: "702.19b") { nope } }'],
  ['{ rule(number: '],
  ['query($n: String!) { rule(number: $n) { number } }', {}],
  ['{ rules(first: 500) { nodes { children { children { children { number } } } } } }'],
];

test('GraphQL answers the same through the fast path (POST and GET over HTTP) as through yoga', async () => {
  const s = await fixtureServer();
  try {
    for (const [query, variables] of QUERIES) {
      const body = JSON.stringify({ query, ...(variables ? { variables } : {}) });
      const viaYoga = await s.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
      const expected = { status: viaYoga.status, body: await viaYoga.text() };
      const post = await fetch(`${s.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.deepEqual({ status: post.status, body: await post.text() }, expected, `POST ${query}`);
      assert.match(post.headers.get('content-type') ?? '', /^application\/json/);
      const qs = new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
      const get = await fetch(`${s.url}/graphql?${qs}`, { headers: { accept: 'application/json' } });
      assert.deepEqual({ status: get.status, body: await get.text() }, expected, `GET ${query}`);
    }
  } finally {
    await s.close();
  }
});

test('only plain requests take the fast path', () => {
  assert.deepEqual(plainParams({ query: '{ editions { label } }' }), { query: '{ editions { label } }', variables: undefined, operationName: undefined });
  assert.equal(plainParams([{ query: '{ a }' }]), null);
  assert.equal(plainParams({ query: '{ a }', extensions: {} }), null);
  assert.equal(plainParams({ query: '{ a }', variables: [1] }), null);
  assert.equal(plainParams({ query: 5 }), null);
  assert.equal(acceptsPlainJson(undefined), true);
  assert.equal(acceptsPlainJson('*/*'), true);
  assert.equal(acceptsPlainJson('application/graphql-response+json'), false);
  assert.equal(acceptsPlainJson('text/event-stream'), false);
  assert.equal(acceptsPlainJson('text/html,application/xhtml+xml'), false);
});
