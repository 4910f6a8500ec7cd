import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getNamedType, isEnumType, isInputObjectType, isObjectType } from 'graphql';
import { createApiSchema } from '../../src/server/graphqlEndpoint.js';
import { FIELD_COST, PAGE_MAX } from '../../src/server/limits.js';

const schema = createApiSchema();
const ours = Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(t.name));

test('every GraphQL type, field, argument and enum value has a description', () => {
  const missing: string[] = [];
  const has = (d: string | null | undefined) => typeof d === 'string' && d.trim().length > 3;
  for (const t of ours) {
    if (!has(t.description)) missing.push(t.name);
    if (isObjectType(t) || isInputObjectType(t)) {
      for (const f of Object.values(t.getFields())) {
        if (!has(f.description)) missing.push(`${t.name}.${f.name}`);
        for (const a of 'args' in f ? f.args : []) if (!has(a.description)) missing.push(`${t.name}.${f.name}(${a.name})`);
      }
    }
    if (isEnumType(t)) for (const v of t.getValues()) if (!has(v.description)) missing.push(`${t.name}.${v.name}`);
  }
  assert.deepEqual(missing, []);
});

test('every field of the schema has a cost, and every cost a field', () => {
  const fields = ours.filter(isObjectType).flatMap((t) => Object.keys(t.getFields()).map((f) => `${t.name}.${f}`));
  assert.deepEqual(
    fields.filter((f) => !(f in FIELD_COST)),
    [],
  );
  assert.deepEqual(
    Object.keys(FIELD_COST).filter((f) => !fields.includes(f)),
    [],
  );
});

test('every `first` argument is a connection of PAGE_MAX, and its description states that maximum', () => {
  const firsts = ours
    .filter(isObjectType)
    .flatMap((t) =>
      Object.values(t.getFields()).flatMap((f) => f.args.filter((a) => a.name === 'first').map((a) => [`${t.name}.${f.name}`, a.description ?? ''] as const)),
    );
  assert.deepEqual(firsts.map(([k]) => k).sort(), Object.keys(PAGE_MAX).sort());
  for (const [k, d] of firsts) assert.match(d, new RegExp(`at most ${PAGE_MAX[k]}\\b`), k);
});

test("enum values are UPPER_CASE (the GraphQL convention), each written from the query layer's lowercase string", () => {
  const enums = ours.filter(isEnumType);
  assert.ok(enums.length >= 9, enums.map((e) => e.name).join());
  for (const e of enums) {
    for (const v of e.getValues()) {
      assert.match(v.name, /^[A-Z][A-Z0-9_]*$/, `${e.name}.${v.name}`);
      assert.equal(e.serialize(v.name.toLowerCase()), v.name, `${e.name}.${v.name}`);
    }
    assert.throws(() => e.serialize(e.getValues()[0]!.name), /cannot represent/i, `${e.name} writes only the query layer's strings`);
  }
});

test('no argument or input field takes an enum, so no query holds an enum literal that the UPPER_CASE names break', () => {
  const enumArgs = ours
    .filter(isObjectType)
    .flatMap((t) =>
      Object.values(t.getFields()).flatMap((f) => f.args.filter((a) => isEnumType(getNamedType(a.type))).map((a) => `${t.name}.${f.name}(${a.name})`)),
    );
  const enumInputs = ours.filter(isInputObjectType).flatMap((t) =>
    Object.values(t.getFields())
      .filter((f) => isEnumType(getNamedType(f.type)))
      .map((f) => `${t.name}.${f.name}`),
  );
  assert.deepEqual([...enumArgs, ...enumInputs], []);
});

test('every entity type has `id: ID!`; every other type is a value, named here on purpose', () => {
  const objects = ours.filter(isObjectType).filter((t) => t.name !== 'Query');
  const keyed = objects.filter((t) => String(t.getFields().id?.type) === 'ID!').map((t) => t.name);
  assert.deepEqual(keyed.sort(), ['Edition', 'GlossaryEntry', 'GlossaryHistory', 'History', 'HistoryStep', 'Keyword', 'Rule']);
  // values of what they hang under (an edition, a rule, an answer to arguments), kept in it by a normalized cache
  const values = objects.filter((t) => !keyed.includes(t.name)).map((t) => t.name);
  assert.deepEqual(values.sort(), [
    'Citation',
    'CitationReport',
    'CrossReference',
    'DiffChange',
    'DiffConnection',
    'DiffCounts',
    'DiffEdge',
    'DiffSegment',
    'EditionReference',
    'KnownEdition',
    'LookupExample',
    'LookupResult',
    'PageInfo',
    'Part',
    'RuleConnection',
    'RuleEdge',
    'RuleSide',
    'SearchConnection',
    'SearchEdge',
    'SearchHit',
    'SubruleAdded',
    'SubruleChanged',
    'SubruleChanges',
    'SubruleRemoved',
    'SubruleRenumbered',
    'Unit',
    'UnitPart',
  ]);
});
