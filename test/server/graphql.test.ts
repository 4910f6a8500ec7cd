import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { getIntrospectionQuery } from 'graphql';
import { buildServer, type BuiltServer } from '../../src/server/buildServer.js';
import { doc, fixtureDb } from './fixtures.js';
import { GRAPHQL_RESPONSE, gql } from './helpers.js';

let built: BuiltServer;
before(async () => {
  built = await buildServer({ db: fixtureDb() });
});
after(() => built.kb().close());

test('editions and edition resolution by date', async () => {
  const r = await gql(
    built,
    `{ editions { effectiveDate } a: edition(date: "2021-07-01") { effectiveDate ruleCount }
       b: edition(date: "latest") { effectiveDate } c: edition { effectiveDate } d: edition(date: "2021-07-23") { effectiveDate } }`,
  );
  assert.equal(r.json.errors, undefined);
  assert.deepEqual(
    r.json.data.editions.map((e: { effectiveDate: string }) => e.effectiveDate),
    ['2008-10-01', '2021-06-18', '2021-07-23'],
  );
  assert.equal(r.json.data.a.effectiveDate, '2021-06-18');
  assert.ok(r.json.data.a.ruleCount > 50);
  assert.equal(r.json.data.b.effectiveDate, '2021-07-23');
  assert.equal(r.json.data.c.effectiveDate, '2021-07-23');
  assert.equal(r.json.data.d.effectiveDate, '2021-07-23');
});

test('rule with references in a past edition resolves them in that edition', async () => {
  const q = `query($e: String) { rule(number: "700.2g", edition: $e) {
      number text lineageId parent { number } ancestors { number } edition { effectiveDate }
      references { targetNumber kind dangling source target { number text referencedBy { number } } } } }`;
  const past = await gql(built, q, { e: '2021-07-01' });
  assert.equal(past.json.errors, undefined);
  const rule = past.json.data.rule;
  assert.equal(rule.edition.effectiveDate, '2021-06-18');
  assert.deepEqual(
    rule.ancestors.map((a: { number: string }) => a.number),
    ['700.2', '700'],
  );
  assert.equal(rule.references.length, 1);
  assert.equal(rule.references[0].targetNumber, '706.10');
  assert.equal(rule.references[0].dangling, false);
  assert.match(rule.references[0].target.text, /^To copy a spell/);
  assert.deepEqual(rule.references[0].target.referencedBy, [{ number: '700.2g' }]);
  const now = await gql(built, q, { e: 'latest' });
  assert.equal(now.json.data.rule.references[0].targetNumber, '707.10');
  assert.match(now.json.data.rule.references[0].target.text, /^To copy a spell/);
});

test('dangling references from examples, children and examples', async () => {
  const r = await gql(
    built,
    `{ rule(number: "702.19b") { examples references { targetNumber dangling source exampleIndex target { number } } }
       header: rule(number: "702.19") { children { number } } }`,
  );
  const refs = r.json.data.rule.references;
  assert.equal(r.json.data.rule.examples.length, 2);
  assert.deepEqual(
    refs.map((x: { targetNumber: string; dangling: boolean; source: string }) => `${x.targetNumber}:${x.dangling}:${x.source}`),
    ['510.1c:false:TEXT', '510.1d:false:TEXT', '999.9:true:EXAMPLE'],
  );
  assert.equal(refs[2].target, null);
  assert.equal(refs[2].exampleIndex, 1);
  assert.deepEqual(
    r.json.data.header.children.map((c: { number: string }) => c.number),
    ['702.19a', '702.19b', '702.19c'],
  );
});

test('unknown rule: null plus NOT_FOUND with did-you-mean numbers', async () => {
  const r = await gql(built, '{ rule(number: "702.91", edition: "2021-07-23") { number } }');
  assert.equal(r.status, 200);
  assert.equal(r.json.data.rule, null);
  const err = r.json.errors![0];
  assert.equal(err.extensions.code, 'NOT_FOUND');
  assert.ok(err.extensions.suggestions.includes('702.19'));
  assert.equal(err.extensions.stack, undefined);
});

test('malformed input is a BAD_USER_INPUT error naming the problem, beside the data of the other fields (200)', async () => {
  for (const [q, re, partial] of [
    ['{ rule(number: "abc") { number } }', /not a rule number/, true],
    ['{ rule(number: "702.19", edition: "yesterday") { number } }', /edition "[a-z]+" is not a date/, true],
    ['{ rule(number: "702.19", edition: "1990-01-01") { number } }', /no cr edition was in force on 1990-01-01: the earliest stored is/, true],
    // rules is non-null: its error makes the whole data null
    ['{ rules(first: 5, after: "garbage") { nodes { number } } }', /invalid cursor/, false],
  ] as const) {
    for (const accept of ['application/json', GRAPHQL_RESPONSE]) {
      const r = await gql(built, `{ ok: edition { effectiveDate } ${q.slice(1)}`, {}, accept);
      assert.equal(r.status, 200, `${accept} ${q}`);
      if (partial) assert.equal(r.json.data.ok.effectiveDate, '2021-07-23', 'the other field is answered');
      else assert.equal(r.json.data, null);
      assert.equal(r.json.errors![0].extensions.code, 'BAD_USER_INPUT', q);
      assert.match(r.json.errors![0].message, re);
    }
  }
});

test('rules connection: pages with opaque cursors; first over 500 refused naming the argument and the maximum', async () => {
  const one = await gql(built, '{ rules(edition: "2021-07-23", first: 4) { nodes { number } pageInfo { hasNextPage endCursor } } }');
  const c = one.json.data.rules;
  assert.deepEqual(
    c.nodes.map((n: { number: string }) => n.number),
    ['100', '100.1', '100.1a', '510'],
  );
  assert.equal(c.pageInfo.hasNextPage, true);
  assert.doesNotMatch(c.pageInfo.endCursor, /^\d+$/);
  const two = await gql(built, 'query($a: String) { rules(first: 2, after: $a) { nodes { number } } }', { a: c.pageInfo.endCursor });
  assert.deepEqual(
    two.json.data.rules.nodes.map((n: { number: string }) => n.number),
    ['510.1', '510.1c'],
  );
  const big = await gql(built, '{ rules(first: 100000) { nodes { number } } }', {}, GRAPHQL_RESPONSE);
  assert.equal(big.status, 400);
  assert.equal(big.json.data, undefined, 'refused before it runs');
  assert.equal(big.json.errors![0].extensions.code, 'BAD_USER_INPUT');
  assert.deepEqual([big.json.errors![0].extensions.argument, big.json.errors![0].extensions.maximum], ['first', 500]);
  assert.match(big.json.errors![0].message, /`first`.*500/);
  const count = (await gql(built, '{ edition { ruleCount } }')).json.data.edition.ruleCount;
  const all = await gql(built, '{ rules(first: 500) { nodes { number } } }');
  assert.equal(all.json.data.rules.nodes.length, Math.min(500, count));
  const sec = await gql(built, '{ rules(section: "702.19") { nodes { number } } }');
  assert.deepEqual(
    sec.json.data.rules.nodes.map((n: { number: string }) => n.number),
    ['702.19', '702.19a', '702.19b', '702.19c'],
  );
});

test('search: ranked, highlighted, edition-scoped, and nasty input never fails', async () => {
  const r = await gql(
    built,
    '{ search(query: "trample", edition: "2008-10-01") { nodes { kind score snippet highlighted rule { number edition { effectiveDate } } } } }',
  );
  const hits = r.json.data.search.nodes;
  assert.ok(hits.length >= 2);
  for (const h of hits) {
    assert.match(h.highlighted, /<mark>trample<\/mark>/i);
    if (h.rule) assert.equal(h.rule.edition.effectiveDate, '2008-10-01');
  }
  for (const nasty of ['"', '*', 'NEAR(', '-trample', '((', 'trample OR', 'a:b', '^', '""""', '\u0000', 'x'.repeat(400)]) {
    const n = await gql(built, 'query($q: String!) { search(query: $q) { nodes { snippet } pageInfo { hasNextPage } } }', { q: nasty });
    assert.ok(n.status < 500, nasty);
    assert.equal(n.json.errors, undefined, nasty);
  }
  const paged = await gql(built, '{ search(query: "damage", first: 2) { nodes { snippet } pageInfo { hasNextPage endCursor } } }');
  assert.equal(paged.json.data.search.nodes.length, 2);
  const next = await gql(built, 'query($a: String) { search(query: "damage", first: 2, after: $a) { nodes { snippet } } }', {
    a: paged.json.data.search.pageInfo.endCursor,
  });
  assert.notDeepEqual(next.json.data.search.nodes, paged.json.data.search.nodes);
});

test('glossary, keywords and lookup', async () => {
  const r = await gql(
    built,
    `{ glossary(term: "DIES") { term definition references { targetNumber target { number } } }
       glossaryTerms(edition: "2021-06-18") { term }
       keywords(edition: "2008-10-01") { kind name number rule { text } }
       lookup(q: "devotoin") { kind matched suggestions rules { number } } }`,
  );
  assert.equal(r.json.errors, undefined);
  assert.equal(r.json.data.glossary.term, 'Dies');
  assert.deepEqual(r.json.data.glossary.references[0].target, { number: '700.4' });
  assert.equal(r.json.data.glossaryTerms.length, 4);
  assert.deepEqual(
    r.json.data.keywords.map((k: { number: string }) => k.number),
    ['501.1', '502.9'],
  );
  assert.equal(r.json.data.lookup.kind, 'FUZZY');
  assert.equal(r.json.data.lookup.matched, 'Devotion');
  assert.deepEqual(r.json.data.lookup.rules, [{ number: '700.5' }]);
  const miss = await gql(built, '{ glossary(term: "Dyes") { term } }');
  assert.equal(miss.json.errors![0].extensions.code, 'NOT_FOUND');
  assert.ok(miss.json.errors![0].extensions.suggestions.includes('Dies'));
});

test('depth and cost limits', async () => {
  const deep = await gql(
    built,
    '{ rule(number: "702.19b") { parent { parent { parent { parent { parent { parent { parent { parent { parent { parent { number } } } } } } } } } } } }',
    {},
    GRAPHQL_RESPONSE,
  );
  assert.equal(deep.status, 400);
  assert.equal(deep.json.errors![0].extensions.code, 'TOO_COMPLEX');
  assert.match(deep.json.errors![0].message, /depth/);
  const costly = await gql(
    built,
    '{ rules(first: 500) { nodes { children { children { references { target { referencedBy { number } } } } } } } }',
    {},
    GRAPHQL_RESPONSE,
  );
  assert.equal(costly.status, 400);
  assert.match(costly.json.errors![0].message, /cost/);
  const introspection = await gql(built, '{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }');
  assert.equal(introspection.json.errors, undefined);
  // what GraphiQL sends first, with every option it may turn on
  const standard = await gql(
    built,
    getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }),
  );
  assert.equal(standard.json.errors, undefined);
  assert.ok(standard.json.data.__schema.types.length > 40);
});

test('search snippets and highlights are HTML: the text is escaped, matches are in <mark>', async () => {
  const db = fixtureDb(':memory:', [
    doc(
      '2021-07-23',
      [
        ['100', 'General'],
        ['100.1', 'Trample <b>bold</b> & "quoted" text.'],
      ],
      [],
    ),
  ]);
  const s = await buildServer({ db });
  try {
    const r = await gql(s, '{ search(query: "trample") { nodes { snippet highlighted } } }');
    assert.equal(r.json.errors, undefined);
    const hit = r.json.data.search.nodes[0];
    assert.equal(hit.highlighted, '<mark>Trample</mark> &lt;b&gt;bold&lt;/b&gt; &amp; "quoted" text.');
    assert.equal(hit.snippet, hit.highlighted);
  } finally {
    db.close();
  }
});

test('lookup picks one example and reads questions', async () => {
  const r = await gql(
    built,
    '{ a: lookup(q: "702.19b ex 2") { kind example { index text } rules { number } } b: lookup(q: "what does dies mean?") { kind matched } }',
  );
  assert.equal(r.json.errors, undefined);
  assert.equal(r.json.data.a.kind, 'EXAMPLE');
  assert.equal(r.json.data.a.example.index, 2);
  assert.match(r.json.data.a.example.text, /trample and deathtouch/);
  assert.deepEqual(r.json.data.a.rules, [{ number: '702.19b' }]);
  assert.deepEqual(r.json.data.b, { kind: 'GLOSSARY', matched: 'Dies' });
});
