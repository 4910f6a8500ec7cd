import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execute, getIntrospectionQuery, type ExecutionArgs } from 'graphql';
import { buildServer } from '../../src/server/buildServer.js';
import { corpusDb } from '../cli/corpusDb.js';
import { fixtureDb } from './fixtures.js';
import { log as serverLog } from '../../src/server/logger.js';
import { GRAPHQL_RESPONSE, gql, sharedServer, type J } from './helpers.js';

// Regressions of an outside probe's findings ("Unbreakable"), on the corpus database: its lists
// (700 glossary terms, hundreds of rules) are what made the attacks costly.
const dbFile = corpusDb();
const shared = sharedServer(dbFile, { responseCache: false });

const post = (body: unknown, accept = 'application/json') =>
  fetch(`${shared.l.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
const get = (params: Record<string, string>, accept = 'application/json') =>
  fetch(`${shared.l.url}/graphql?${new URLSearchParams(params).toString()}`, { headers: { accept } });
/** The answer's JSON, and its size in bytes. */
async function read(res: Response): Promise<{ status: number; type: string; bytes: number; json: { data?: J; errors?: J[] } }> {
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.byteLength(text),
    json: JSON.parse(text) as { data?: J; errors?: J[] },
  };
}

const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');
const TYPENAME_BOMB = `{ g0: glossaryTerms { ...T } g1: glossaryTerms { ...T } g2: glossaryTerms { ...T } } fragment T on GlossaryEntry { ${aliases(590, '__typename')} }`;

test('a __typename alias bomb through a fragment is refused before it runs, as a POST and as a GET link', async () => {
  assert.ok(TYPENAME_BOMB.length > 9000);
  for (const res of [await post({ query: TYPENAME_BOMB }), await get({ query: TYPENAME_BOMB })]) {
    const r = await read(res);
    assert.equal(r.json.data, undefined, 'no data: nothing ran');
    assert.equal(r.json.errors![0].extensions.code, 'TOO_COMPLEX');
    assert.match(r.json.errors![0].message, /aliases|cost/i);
    assert.ok(r.bytes < 1000, `${r.bytes} bytes`);
  }
});

test("__typename is priced like any field: each of a list's 700 entries counts", async () => {
  const db = fixtureDb();
  // glossaryTerms: 10 units, and 700 entries (FIELD_COST) of what is selected inside
  const s = await buildServer({ db, limits: { maxCost: 20 } });
  try {
    const one = await gql(s, '{ glossaryTerms { term } }');
    assert.equal(one.json.errors, undefined, 'cost 17');
    const two = await gql(s, '{ glossaryTerms { term a: __typename } }');
    assert.equal(two.json.errors![0].extensions.code, 'TOO_COMPLEX', 'cost 24');
    assert.match(two.json.errors![0].message, /cost 24 exceeds the limit of 20/);
  } finally {
    db.close();
  }
});

test("140 aliases of __schema are refused, and introspection is priced: GraphiQL's query passes, six copies in one operation do not", async () => {
  const many = await read(await post({ query: `{ ${aliases(140, '__schema { types { name fields { name } } }')} }` }, GRAPHQL_RESPONSE));
  assert.equal(many.status, 400);
  assert.equal(many.json.errors![0].extensions.code, 'TOO_COMPLEX');
  const standard = getIntrospectionQuery({ descriptions: true });
  const one = await read(await post({ query: standard }));
  assert.equal(one.json.errors, undefined);
  const body = standard.slice(standard.indexOf('__schema'), standard.indexOf('fragment FullType'));
  const six = Array.from({ length: 6 }, (_, i) => `s${i}: ${body.trim().replace(/\}\s*$/, '')}`).join('\n');
  const costly = await read(await post({ query: `query { ${six} } ${standard.slice(standard.indexOf('fragment FullType'))}` }));
  assert.equal(costly.json.errors?.[0]?.extensions.code, 'TOO_COMPLEX', JSON.stringify(costly.json.errors));
  assert.match(costly.json.errors![0].message, /cost/);
});

test('a 25-level doubling fragment is refused quickly: the cost analysis is bounded in the document', async () => {
  const frags = Array.from({ length: 25 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
  const query = `{ ...F0 } ${frags} fragment F25 on Query { __typename }`;
  const t0 = performance.now();
  const r = await read(await post({ query }, GRAPHQL_RESPONSE));
  const ms = performance.now() - t0;
  assert.equal(r.status, 400);
  assert.equal(r.json.errors![0].extensions.code, 'TOO_COMPLEX');
  // expected: some 20 ms; 2^25 spreads walked one by one would take minutes (a bound loose enough for a loaded CI machine)
  assert.ok(ms < 5000, `refused in ${ms} ms: well under the minutes an exponential walk takes`);
});

test("first: $var is judged by the variable's value; unset, by the argument's default", async () => {
  const search = 'query($n: Int) { search(query: "damage", first: $n) { nodes { snippet } } }';
  for (const variables of [{ n: 10 }, {}, { n: 100 }]) {
    const r = await read(await post({ query: search, variables }, GRAPHQL_RESPONSE));
    assert.equal(r.status, 200, JSON.stringify(variables));
    assert.equal(r.json.errors, undefined, JSON.stringify(r.json.errors));
    assert.equal(r.json.data.search.nodes.length, (variables as { n?: number }).n ?? 20);
  }
  // the cost follows the value: 5 histories pass, 50 do not
  const histories = 'query($n: Int) { rules(first: $n) { nodes { history { lineageId } } } }';
  assert.equal((await read(await post({ query: histories, variables: { n: 5 } }))).json.errors, undefined);
  const costly = await read(await post({ query: histories, variables: { n: 50 } }, GRAPHQL_RESPONSE));
  assert.equal(costly.status, 400);
  assert.equal(costly.json.errors![0].extensions.code, 'TOO_COMPLEX');
});

test("a cost is kept per document only when no variable can change it: a directive's variable is judged each time; a kept cost still refuses bad variables", async () => {
  const deep = 'query($d: Boolean!) { rules(first: 50) { nodes { number history @include(if: $d) { lineageId } } } }';
  for (const d of [false, true, false, true]) {
    const r = await read(await post({ query: deep, variables: { d } }, GRAPHQL_RESPONSE));
    assert.equal(r.status, d ? 400 : 200, `d=${d}`);
    if (d) assert.equal(r.json.errors![0].extensions.code, 'TOO_COMPLEX');
    else assert.equal(r.json.errors, undefined);
  }
  const one = 'query($n: String!) { rule(number: $n) { number } }';
  for (const [variables, ok] of [
    [{ n: '702.19b' }, true],
    [{ n: 5 }, false],
    [{}, false],
    [{ n: '702.19' }, true],
  ] as const) {
    const r = await read(await post({ query: one, variables }, GRAPHQL_RESPONSE));
    assert.equal(r.status, ok ? 200 : 400, JSON.stringify(variables));
    if (!ok) assert.equal(r.json.errors![0].extensions.code, 'BAD_USER_INPUT');
  }
});

test('a first above the maximum is refused as BAD_USER_INPUT naming the argument and the maximum, as a literal or a variable', async () => {
  for (const [query, variables, max] of [
    ['{ search(query: "damage", first: 101) { nodes { kind } } }', {}, 100],
    ['query($n: Int) { search(query: "damage", first: $n) { nodes { kind } } }', { n: 5000 }, 100],
    ['{ rules(first: 501) { nodes { number } } }', {}, 500],
    ['{ diff(from: "2021-06-18", to: "latest", first: -1) { nodes { textChange } } }', {}, 500],
  ] as const) {
    const r = await read(await post({ query, variables }, GRAPHQL_RESPONSE));
    assert.equal(r.status, 400, query);
    assert.equal(r.json.data, undefined);
    const e = r.json.errors![0];
    assert.equal(e.extensions.code, 'BAD_USER_INPUT');
    assert.equal(e.extensions.argument, 'first');
    assert.equal(e.extensions.maximum, max);
    assert.match(e.message, new RegExp(`\`first\`.* ${max}\\b`));
  }
});

test("an input error in one field leaves the other fields' data, with 200 under either media type", async () => {
  const query = '{ bad: rule(number: "abc") { number } good: rule(number: "702.19b") { number } }';
  for (const accept of ['application/json', GRAPHQL_RESPONSE]) {
    const r = await read(await post({ query }, accept));
    assert.equal(r.status, 200, accept);
    assert.deepEqual(r.json.data, { bad: null, good: { number: '702.19b' } });
    assert.equal(r.json.errors![0].extensions.code, 'BAD_USER_INPUT');
    assert.deepEqual(r.json.errors![0].path, ['bad']);
  }
});

test("application/graphql-response+json is honoured: its content type and the spec's status codes; application/json answers 200", async () => {
  const cases: Array<[string, Record<string, unknown>, number, string]> = [
    ['{ __typename }', {}, 200, ''],
    ['{ rule(number: ', {}, 400, 'GRAPHQL_PARSE_FAILED'],
    ['{ nope }', {}, 400, 'GRAPHQL_VALIDATION_FAILED'],
    [`{ ${aliases(31, '__typename')} }`, {}, 400, 'TOO_COMPLEX'],
    ['query($n: Int) { rules(first: $n) { nodes { number } } }', { n: 'many' }, 400, 'BAD_USER_INPUT'],
  ];
  for (const [query, variables, status, code] of cases) {
    const r = await read(await post({ query, variables }, GRAPHQL_RESPONSE));
    assert.equal(r.status, status, query);
    assert.match(r.type, /^application\/graphql-response\+json/);
    if (code) {
      assert.equal(r.json.data, undefined, 'a request error has no data');
      assert.equal(r.json.errors![0].extensions.code, code, query);
    }
    const legacy = await read(await post({ query, variables }, 'application/json'));
    assert.equal(legacy.status, 200, query);
    assert.match(legacy.type, /^application\/json/);
    if (code) assert.equal(legacy.json.errors![0].extensions.code, code, query);
  }
});

test('persisted queries (Apollo APQ): a hash alone is PERSISTED_QUERY_NOT_FOUND, then the query registers it, then the hash alone runs it (POST and GET)', async () => {
  const query = '{ rule(number: "702.19b", edition: "2021-06-18") { number } }';
  const sha256Hash = createHash('sha256').update(query).digest('hex');
  const extensions = { persistedQuery: { version: 1, sha256Hash } };
  const miss = await read(await post({ extensions }));
  assert.equal(miss.json.errors![0].extensions.code, 'PERSISTED_QUERY_NOT_FOUND');
  assert.equal(miss.json.errors![0].message, 'PersistedQueryNotFound', 'the message Apollo clients look for');
  assert.ok(miss.status !== 400 && miss.status !== 500, 'Apollo clients stop persisting on 400 and 500');
  const getMiss = await get({ extensions: JSON.stringify(extensions) }, 'text/html,*/*');
  assert.match(getMiss.headers.get('content-type')!, /json/, 'never the GraphiQL page to a request with extensions');
  assert.equal((await read(getMiss)).json.errors![0].extensions.code, 'PERSISTED_QUERY_NOT_FOUND');
  const wrong = await read(await post({ query: '{ __typename }', extensions }));
  assert.equal(wrong.json.errors![0].extensions.code, 'PERSISTED_QUERY_MISMATCH');
  const register = await read(await post({ query, extensions }));
  assert.deepEqual(register.json.data, { rule: { number: '702.19b' } });
  const hit = await read(await post({ extensions }));
  assert.deepEqual(hit.json.data, { rule: { number: '702.19b' } });
  const getHit = await get({ extensions: JSON.stringify(extensions) }, 'text/html,*/*');
  assert.deepEqual((await read(getHit)).json.data, { rule: { number: '702.19b' } });
});

test('a persisted query the server cannot read (another version, no hash) is PERSISTED_QUERY_NOT_SUPPORTED with 400, so Apollo clients send the query in full', async () => {
  const sha256Hash = createHash('sha256').update('{ __typename }').digest('hex');
  for (const persistedQuery of [{ version: 2, sha256Hash }, { version: 1 }, { version: 1, sha256Hash: 7 }, null]) {
    for (const body of [{ extensions: { persistedQuery } }, { query: '{ __typename }', extensions: { persistedQuery } }]) {
      const r = await read(await post(body));
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.errors![0].extensions.code, 'PERSISTED_QUERY_NOT_SUPPORTED', JSON.stringify(body));
      assert.equal(r.json.errors![0].message, 'PersistedQueryNotSupported', 'the message Apollo clients look for');
    }
  }
});

test('GraphiQL only for a GET that carries no GraphQL request; a GET with a query or extensions gets JSON', async () => {
  const page = await fetch(`${shared.l.url}/graphql`, { headers: { accept: 'text/html' } });
  assert.match(page.headers.get('content-type')!, /html/);
  assert.match(await page.text(), /GraphiQL/);
  for (const params of [{ query: '{ __typename }' }, { extensions: '{}' }, { extensions: 'not json' }] as Array<Record<string, string>>) {
    const r = await get(params, 'text/html');
    assert.doesNotMatch(r.headers.get('content-type') ?? '', /html/, JSON.stringify(params));
    assert.ok(r.status < 500);
    assert.doesNotMatch(await r.text(), /<html|<!doctype/i);
  }
});

test('answers are capped in bytes: one over the cap is RESPONSE_TOO_LARGE, with no data and 200', async () => {
  const db = fixtureDb();
  const s = await buildServer({ db, limits: { maxAnswerBytes: 2000 } });
  try {
    const small = await gql(s, '{ rule(number: "702.19b") { number } }');
    assert.equal(small.json.errors, undefined);
    const big = await gql(s, `{ ${aliases(20, 'rules { nodes { number text } }')} }`, {}, GRAPHQL_RESPONSE);
    assert.equal(big.status, 200);
    assert.equal(big.json.data, null);
    assert.equal(big.json.errors![0].extensions.code, 'RESPONSE_TOO_LARGE');
    assert.equal(big.json.errors![0].extensions.maximum, 2000);
    assert.ok(big.text.length < 2000);
  } finally {
    db.close();
  }
});

test("the executor can be swapped per operation by its cost, which the resolvers' context carries", async () => {
  const db = fixtureDb();
  const seen: number[] = [];
  const s = await buildServer({
    db,
    executorFor: (cost) =>
      cost > 20
        ? (args: ExecutionArgs) => {
            seen.push((args.contextValue as { cost: number }).cost);
            return execute(args);
          }
        : undefined,
  });
  try {
    const cheap = await gql(s, '{ rule(number: "702.19b") { number } }');
    assert.equal(cheap.json.data.rule.number, '702.19b');
    assert.deepEqual(seen, [], 'cheap operations run as usual');
    const costly = await gql(s, '{ history(number: "702.19b") { lineageId } }');
    assert.equal(costly.json.errors, undefined);
    assert.equal(seen.length, 1);
    // Query.history 25 units, lineageId the floor
    assert.ok(seen[0]! > 25 && seen[0]! < 26, String(seen[0]));
  } finally {
    db.close();
  }
});

test('an unexpected error is masked ("Unexpected error.", INTERNAL_SERVER_ERROR) and logged; the other fields still answer', async (t) => {
  const db = fixtureDb();
  const s = await buildServer({ db });
  const logged: string[] = [];
  t.mock.method(serverLog, 'error', (...a: unknown[]) => void logged.push(JSON.stringify(a)));
  try {
    s.kb().glossaryTermOrThrow = () => {
      throw new TypeError('secret detail at /srv/crkb/src/query/KnowledgeBase.ts');
    };
    const r = await gql(s, '{ glossary(term: "Dies") { term } edition { effectiveDate } }');
    assert.equal(r.status, 200);
    assert.equal(r.json.data.glossary, null);
    assert.equal(r.json.data.edition.effectiveDate, '2021-07-23');
    assert.equal(r.json.errors![0].message, 'Unexpected error.');
    assert.equal(r.json.errors![0].extensions.code, 'INTERNAL_SERVER_ERROR');
    assert.doesNotMatch(r.text, /secret|\/srv\//);
    assert.ok(
      logged.some((a) => a.includes('secret detail')),
      'the real error is logged',
    );
  } finally {
    db.close();
  }
});
