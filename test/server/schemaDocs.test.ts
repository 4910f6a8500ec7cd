import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isEnumType, isInputObjectType, isObjectType } from 'graphql';
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
