import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphQLObjectType } from 'graphql';
import { buildServer } from '../../src/server/buildServer.js';
import { createApiSchema } from '../../src/server/graphqlEndpoint.js';
import { FIELD_COST } from '../../src/server/limits.js';
import { listen } from '../../src/server/listen.js';
import { createResponseCache } from '../../src/http/ResponseCache.js';
import { corpusDb } from '../cli/corpusDb.js';
import { fixtureDb } from './fixtures.js';
import { GRAPHQL_RESPONSE, gql, sharedServer } from './helpers.js';

const dbFile = corpusDb();

test('the cost table lists every field of the schema, and nothing else', () => {
  const schema = createApiSchema();
  const fields: string[] = [];
  for (const t of Object.values(schema.getTypeMap())) {
    if (!(t instanceof GraphQLObjectType) || t.name.startsWith('__')) continue;
    for (const f of Object.keys(t.getFields())) fields.push(`${t.name}.${f}`);
  }
  assert.deepEqual(
    fields.filter((f) => !(f in FIELD_COST)),
    [],
    'fields missing from FIELD_COST',
  );
  assert.deepEqual(
    Object.keys(FIELD_COST).filter((f) => !fields.includes(f)),
    [],
    'FIELD_COST entries of no field',
  );
});

test('cost and alias limits hold through fragments, inline fragments and aliases', async () => {
  const db = fixtureDb();
  const s = await buildServer({ db });
  try {
    // 30 histories through a named fragment, 30 more through an inline one: 60 x 25 units
    const viaFragment = await gql(
      s,
      'query { rules(first: 30) { nodes { ...H ... on Rule { history { lineageId } } } } } fragment H on Rule { history { lineageId } }',
      {},
      GRAPHQL_RESPONSE,
    );
    assert.equal(viaFragment.status, 400);
    assert.equal(viaFragment.json.errors![0].extensions.code, 'TOO_COMPLEX');
    assert.match(viaFragment.json.errors![0].message, /cost \d+ exceeds/);
    const fine = await gql(s, 'query { rules(first: 5) { nodes { ...H } } } fragment H on Rule { number history { lineageId } }');
    assert.equal(fine.status, 200, fine.text);
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: edition { effectiveDate }`).join(' ');
    const many = await gql(s, `{ ${aliases} }`);
    assert.equal(many.json.errors![0].extensions.code, 'TOO_COMPLEX');
    assert.match(many.json.errors![0].message, /limit of 30 exceeded, found 31/);
    // the same field many times through aliases is as costly as asking for it many times
    const searches = Array.from({ length: 25 }, (_, i) => `s${i}: search(query: "trample") { nodes { kind } }`).join(' ');
    const costly = await gql(s, `{ ${searches} }`);
    assert.equal(costly.json.errors![0].extensions.code, 'TOO_COMPLEX');
    assert.match(costly.json.errors![0].message, /cost \d+ exceeds/);
    // a fragment spreading itself is a validation error, not a stack overflow
    const cyclic = await gql(s, 'query { rule(number: "100.1") { ...A } } fragment A on Rule { parent { ...A } }', {}, GRAPHQL_RESPONSE);
    assert.equal(cyclic.status, 400);
    assert.equal(cyclic.json.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  } finally {
    s.kb().close();
  }
});

test('the per-request time limit stops costly work with TIMEOUT; such an answer is never cached', async () => {
  const db = fixtureDb();
  const s = await buildServer({ db, timeLimitMs: -1 });
  const l = await listen(s.app, 0);
  try {
    const r = await gql(s, '{ history(number: "100.1") { lineageId } rule(number: "100.1") { number } }');
    assert.equal(r.json.errors![0].extensions.code, 'TIMEOUT');
    assert.equal(r.json.data.history, null);
    assert.equal(r.json.data.rule.number, '100.1', 'work that checks no clock still answers');
    const get = await fetch(`${l.url}/graphql?query=${encodeURIComponent('{ history(number: "100.1", edition: "2021-07-23") { lineageId } }')}`);
    assert.equal((await get.json()).errors[0].extensions.code, 'TIMEOUT');
    assert.equal(get.headers.get('cache-control'), 'no-store');
  } finally {
    await l.close();
    s.kb().close();
  }
});

test('the response cache is bounded in bytes: old answers are evicted, oversized ones never kept', () => {
  const cache = createResponseCache(64 * 1024);
  const entry = (body: string) => ({ status: 200, contentType: 'text/plain', body, etag: 'W/"x"', cacheControl: 'public' });
  for (let i = 0; i < 200; i++) cache.set(`/v1/lookup?q=${i}`, entry('x'.repeat(1000)));
  assert.ok(cache.calculatedSize <= 64 * 1024, `${cache.calculatedSize} bytes`);
  assert.equal(cache.get('/v1/lookup?q=0'), undefined, 'the oldest answer was evicted');
  assert.ok(cache.get('/v1/lookup?q=199'));
  cache.set('/big', entry('y'.repeat(20 * 1024)));
  assert.equal(cache.get('/big'), undefined, 'an answer over a quarter of the budget is not kept');
});

const shared = sharedServer(dbFile, { publicUrl: 'https://crkb.test' });

test('answers never depend on Host or X-Forwarded-Proto; GET /graphql varies on Accept', async () => {
  const path = '/v1/lookup?q=trample&format=markdown';
  const plain = await (await fetch(shared.l.url + path)).text();
  const evil = await fetch(shared.l.url + path + '&x=1', { headers: { host: 'x>) **[Click](https://evil.example)** (<y', 'x-forwarded-proto': 'javascript' } });
  const body = await evil.text();
  assert.doesNotMatch(body, /evil\.example|javascript/);
  assert.equal(body, plain);
  assert.match(plain, /https:\/\/crkb\.test\/v1\/lookup/);
  const g = await fetch(`${shared.l.url}/graphql?query=${encodeURIComponent('{ edition { effectiveDate } }')}`);
  assert.match(g.headers.get('vary') ?? '', /Accept\b/);
});

test('malformed input is a 4xx or a GraphQL BAD_USER_INPUT error, never a 500: bad percent-encoding, bad variables, forged cursors, markdown links', async () => {
  for (const [path, status, code] of [
    ['/v1/rules/%', 400, undefined],
    ['/v1/rules/%E0%A4%A', 400, undefined],
    ['/graphql?query=%7Beditions%7Blabel%7D%7D&variables=%7B', 400, 'BAD_USER_INPUT'],
    ['/graphql?query=%7Beditions%7Blabel%7D%7D&extensions=%5B', 400, 'BAD_USER_INPUT'],
    // a field's bad argument is an error beside the answer's data (null here: the field is non-null)
    [`/graphql?query=${encodeURIComponent('{ search(query: "x", after: "czotOTk5OTk5OTk5OTk5") { nodes { kind } } }')}`, 200, 'BAD_USER_INPUT'],
    [`/graphql?query=${encodeURIComponent('{ diff(from: "2021-06-18", to: "2021-07-23", after: "ZDotNQ") { nodes { textChange } } }')}`, 200, 'BAD_USER_INPUT'],
    [`/v1/lookup?q=${'e'.repeat(5000)}`, 400, undefined],
  ] as const) {
    const r = await fetch(shared.l.url + path, { headers: { accept: 'application/json' } });
    assert.equal(r.status, status, path.slice(0, 80));
    const body = await r.text();
    assert.doesNotMatch(body, /at \w+ \(|node_modules|stack/);
    if (code) assert.equal(JSON.parse(body).errors[0].extensions.code, code, path.slice(0, 80));
  }
  const md = await (await fetch(`${shared.l.url}/v1/lookup?format=markdown&q=${encodeURIComponent('[x](https://x.example/)')}`)).text();
  assert.match(md, /`\[x\]\(https:\/\/x\.example\/\)`/, 'the query is shown in a code span (rendered literally)');
  assert.doesNotMatch(md.replace(/`[^`]*`/g, ''), /x\.example/, 'and nowhere else: no live link');
});

/** A small deterministic random source (fixed seed: every run sends the same requests). */
