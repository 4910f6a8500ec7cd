import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServer, type BuiltServer } from '../../src/server/buildServer.js';
import { fixtureDbWithLineage } from './fixtures.js';
import { gql, type J } from './helpers.js';

// What generated clients with normalized caches (Apollo Client, Relay, urql's graphcache) need: a global
// id on every entity, Relay-complete page info, one name for one argument (old names kept, deprecated).
let built: BuiltServer;
before(async () => {
  built = await buildServer({ db: fixtureDbWithLineage() });
});
after(() => built.kb().close());

const ok = async (query: string, variables: Record<string, unknown> = {}) => {
  const r = await gql(built, query, variables);
  assert.equal(r.json.errors, undefined, JSON.stringify(r.json.errors));
  return r.json.data as J;
};

test('every entity has a global id: stable, one per object, never shared by two objects', async () => {
  const d = await ok(`{
    rule(number: "707.10", edition: "2021-07-23") { id edition { id } history { id steps { id number } } references { target { id } } }
    earlier: rule(number: "706.10", edition: "2021-06-18") { id history { id } }
    glossaryTerms(edition: "2021-07-23") { id term edition { id } }
    editions { id effectiveDate }
    keywords(edition: "2021-07-23") { id kind name }
  }`);
  assert.equal(d.rule.id, 'Rule:2021-07-23:707.10');
  assert.equal(d.rule.edition.id, 'Edition:2021-07-23');
  assert.equal(d.earlier.id, 'Rule:2021-06-18:706.10');
  assert.match(d.rule.history.id, /^Lineage:\d+$/);
  assert.equal(d.earlier.history.id, d.rule.history.id, 'one lineage across the renumbering, one id');
  assert.deepEqual(
    d.rule.history.steps.map((s: J) => s.id),
    d.rule.history.steps.map((s: J) => `RuleVersion:${s.id.split(':')[1]}:${s.number}`),
  );
  assert.ok(d.keywords.length > 0 && d.keywords.every((k: J) => k.id === `Keyword:2021-07-23:${k.kind.toLowerCase()}:${k.name.toLowerCase()}`));
  const ids = [
    ...d.editions.map((e: J) => e.id),
    ...d.glossaryTerms.map((g: J) => g.id),
    ...d.rule.history.steps.map((s: J) => s.id),
    ...d.keywords.map((k: J) => k.id),
  ];
  assert.equal(new Set(ids).size, ids.length, 'no two objects share an id');
  assert.ok(d.glossaryTerms.length > 0 && d.glossaryTerms.every((g: J) => g.id === `GlossaryEntry:2021-07-23:${g.term.toLowerCase()}`));
  assert.deepEqual(
    d.editions.map((e: J) => e.id),
    d.editions.map((e: J) => `Edition:${e.effectiveDate}`),
  );
  // the same object read twice has the same id (what a normalized cache keys on)
  assert.equal((await ok('{ rule(number: "707.10", edition: "2021-07-23") { id } }')).rule.id, d.rule.id);
});

test('pageInfo is Relay-complete: hasPreviousPage and startCursor beside hasNextPage and endCursor', async () => {
  const page =
    'query($a: String) { rules(edition: "2021-07-23", first: 2, after: $a) { edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }';
  const one = (await ok(page)).rules;
  assert.deepEqual([one.pageInfo.hasPreviousPage, one.pageInfo.hasNextPage], [false, true]);
  assert.equal(one.pageInfo.startCursor, one.edges[0].cursor);
  assert.equal(one.pageInfo.endCursor, one.edges[1].cursor);
  const two = (await ok(page, { a: one.pageInfo.endCursor })).rules;
  assert.equal(two.pageInfo.hasPreviousPage, true);
  assert.equal(two.pageInfo.startCursor, two.edges[0].cursor);
  const search = (await ok('{ search(query: "trample", first: 1) { pageInfo { hasPreviousPage startCursor endCursor } } }')).search.pageInfo;
  assert.equal(search.hasPreviousPage, false);
  assert.equal(search.startCursor, search.endCursor);
  const empty = (await ok('{ diff(from: "2021-07-23", to: "2021-07-23") { pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }')).diff.pageInfo;
  assert.deepEqual(empty, { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
});

test('one name per argument: edition(edition:) and lookup(query:); the old names still answer, marked deprecated', async () => {
  assert.equal((await ok('{ edition(edition: "2021-06-18") { effectiveDate } }')).edition.effectiveDate, '2021-06-18');
  assert.equal((await ok('{ edition(date: "2021-06-18") { effectiveDate } }')).edition.effectiveDate, '2021-06-18');
  assert.equal((await ok('{ lookup(query: "trample") { kind } }')).lookup.kind, 'KEYWORD');
  assert.equal((await ok('query($q: String!) { lookup(q: $q) { kind } }', { q: 'trample' })).lookup.kind, 'KEYWORD');
  for (const query of ['{ lookup { kind } }', '{ lookup(query: "trample", q: "trample") { kind } }', '{ edition(edition: "latest", date: "latest") { id } }']) {
    const r = await gql(built, query);
    assert.equal(r.json.errors![0].extensions.code, 'BAD_USER_INPUT', query);
    assert.ok(['query', 'edition'].includes(r.json.errors![0].extensions.argument), query);
  }
  const intro = await ok(`{ __type(name: "Query") { fields { name args(includeDeprecated: true) { name isDeprecated deprecationReason } } } }`);
  const args = (field: string) => intro.__type.fields.find((f: J) => f.name === field).args;
  assert.deepEqual(
    args('edition').map((a: J) => [a.name, a.isDeprecated]),
    [
      ['edition', false],
      ['date', true],
      ['family', false],
    ],
  );
  assert.deepEqual(
    args('lookup').map((a: J) => [a.name, a.isDeprecated]),
    [
      ['query', false],
      ['q', true],
      ['edition', false],
      ['family', false],
    ],
  );
});
