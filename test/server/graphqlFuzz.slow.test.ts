import { test } from 'node:test';
import { sharedServer } from './helpers.js';
import assert from 'node:assert/strict';
import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { createApiSchema } from '../../src/server/graphqlEndpoint.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { corpusDb } from '../cli/corpusDb.js';

// Grammar-based fuzzing of the GraphQL endpoint: random documents built from the schema (fields with
// arguments, aliases, fragments spread again and again, inline fragments, introspection, directives,
// variables of right and wrong types), some of them mangled into garbage, sent in-process and over
// HTTP (GET and raw POST bodies). No answer may be a 5xx or a stack trace, none may exceed the answer
// cap, and the heap must stay bounded. A fixed seed: every run sends the same requests.

const dbFile = corpusDb();
const shared = sharedServer(dbFile, { responseCache: false });

/** A small deterministic random source. */
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const STRINGS = [
  '702.19b',
  '100',
  '7',
  '702',
  'trample',
  'dies',
  'damage',
  'latest',
  '2021-06-18',
  '2009-07-11',
  'AFR',
  '',
  'x'.repeat(300),
  '"',
  '\\',
  '💥',
  'NEAR(',
  'Rule',
  'Query',
  '__Type',
];
const INTS = [0, 1, 2, 5, 20, 100, 101, 500, 501, -1, 2 ** 31 - 1];

/** Random GraphQL documents over a schema. */
class DocumentGenerator {
  private vars: Array<{ name: string; type: string; value: unknown }> = [];
  private fragments: Array<{ name: string; on: string; body: string }> = [];

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly r: () => number,
  ) {}

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }

  /** A value for an input type, as a literal or (sometimes) a variable of a right or wrong type. */
  private value(t: GraphQLInputType, depth = 0): string {
    const named = getNamedType(t);
    if (this.r() < 0.25 && depth === 0) {
      const name = `v${this.vars.length}`;
      const wrong = this.r() < 0.05;
      const type = wrong ? this.pick(['Int', 'String!', 'Boolean', '[String]', 'Nope']) : t.toString();
      this.vars.push({
        name,
        type,
        value: this.r() < 0.15 ? undefined : this.jsValue(wrong ? this.pick(['Int', 'String', 'Boolean']) : named.name, isListType(getNullableType(t))),
      });
      return `$${name}`;
    }
    if (isListType(getNullableType(t)))
      return `[${Array.from({ length: Math.floor(this.r() * 3) }, () => this.value(getNamedType(t) as GraphQLInputType, depth + 1)).join(', ')}]`;
    if (isEnumType(named)) return this.pick(named.getValues()).name;
    if (isInputObjectType(named)) return '{}';
    if (named.name === 'Int') return String(this.pick(INTS));
    if (named.name === 'Boolean') return this.pick(['true', 'false']);
    if (this.r() < 0.05) return this.pick(['null', '1.5', 'true', 'ENUM']);
    return JSON.stringify(this.pick(STRINGS));
  }

  private jsValue(type: string, list: boolean): unknown {
    const one = type === 'Int' ? this.pick(INTS) : type === 'Boolean' ? this.r() < 0.5 : this.pick(STRINGS);
    return list ? [one, one] : one;
  }

  private args(args: readonly GraphQLArgument[]): string {
    const given = args.filter((a) => isNonNullType(a.type) || this.r() < 0.5);
    if (this.r() < 0.005) given.push({ name: 'bogus', type: this.schema.getType('String') } as GraphQLArgument);
    return given.length === 0 ? '' : `(${given.map((a) => `${a.name}: ${this.value(a.type)}`).join(', ')})`;
  }

  private directives(): string {
    if (this.r() > 0.1) return '';
    if (this.r() < 0.1) return ` ${this.pick(['@deprecated', '@nope', '@include(if: true) @include(if: true)'])}`;
    return ` ${this.pick(['@include(if: true)', '@skip(if: false)', '@skip(if: true)', '@include(if: $b)'])}`;
  }

  private alias(often = false): string {
    return this.r() < (often ? 0.7 : 0.2) ? `${this.pick(['a', 'b', 'x', 'node', 'number'])}${Math.floor(this.r() * 40)}: ` : '';
  }

  /** A selection set on a composite type. */
  selection(type: GraphQLCompositeType, depth: number): string {
    const out: string[] = [];
    const n = 1 + Math.floor(this.r() * (depth === 0 ? 3 : 4));
    for (let i = 0; i < n; i++) {
      const roll = this.r();
      // now and then a wall of aliases (of __typename, or of the first field)
      if (roll < 0.01) out.push(Array.from({ length: 1 + Math.floor(this.r() * 600) }, (_, k) => `t${k}: __typename`).join(' '));
      else if (roll < 0.08) out.push(`${this.alias()}__typename${this.directives()}`);
      else if (roll < 0.12 && type.name === this.schema.getQueryType()!.name) {
        out.push(
          this.alias() +
            this.pick([
              '__schema { types { name fields { name type { name ofType { name } } } } }',
              '__type(name: "Rule") { name fields { name args { name } } }',
              '__schema { queryType { name } directives { name locations } }',
            ]),
        );
      } else if (roll < 0.2 && depth < 14) {
        // a named fragment: a new one, or one already made on this type (spread again and again)
        // (one still being made is spread now and then: a cycle)
        const existing = this.fragments.filter((f) => f.on === type.name && (f.body !== '' || this.r() < 0.02));
        if (existing.length > 0 && this.r() < 0.6) out.push(`...${this.pick(existing).name}${this.directives()}`);
        else {
          const name = `F${this.fragments.length}`;
          const frag = { name, on: type.name, body: '' };
          this.fragments.push(frag);
          frag.body = this.selection(type, depth + 1);
          out.push(`...${name}`);
        }
      } else if (roll < 0.25) out.push(`... ${this.r() < 0.5 ? `on ${type.name} ` : ''}${this.directives()}${this.selection(type, depth + 1)}`);
      else if (isUnionType(type)) out.push('__typename');
      else {
        const fields = Object.values(type.getFields());
        const f = this.pick(fields);
        const inner = getNamedType(f.type);
        const sub = isCompositeType(inner) ? (depth > 12 ? ' { __typename }' : ` ${this.selection(inner, depth + 1)}`) : '';
        // a field with arguments mostly gets an alias (two of the same name with different arguments conflict)
        out.push(`${this.alias(f.args.length > 0)}${f.name}${this.args(f.args)}${this.directives()}${sub}`);
      }
    }
    return `{ ${out.join(' ')} }`;
  }

  /** A whole document and its variables. */
  document(): { query: string; variables: Record<string, unknown> } {
    this.vars = [];
    this.fragments = [];
    const query = this.schema.getQueryType()!;
    let body = this.selection(query, 0);
    if (this.r() < 0.01) {
      // a chain of fragments each spreading the next twice: 2^depth spreads
      const depth = 10 + Math.floor(this.r() * 16);
      for (let k = 0; k < depth; k++) this.fragments.push({ name: `D${k}`, on: query.name, body: `{ ...D${k + 1} ...D${k + 1} }` });
      this.fragments.push({ name: `D${depth}`, on: query.name, body: '{ __typename }' });
      body = body.replace(/^\{/, '{ ...D0 ');
    }
    const frags = this.fragments.map((f) => `fragment ${f.name} on ${f.on} ${f.body}`).join('\n');
    if (body.includes('$b') || frags.includes('$b')) this.vars.push({ name: 'b', type: 'Boolean!', value: this.r() < 0.5 });
    const kind = this.r() < 0.05 ? this.pick(['mutation', 'subscription']) : this.pick(['query', 'anonymous']);
    const defs = this.vars.length > 0 ? `(${this.vars.map((v) => `$${v.name}: ${v.type}`).join(', ')})` : '';
    const op = kind === 'anonymous' && defs === '' ? body : `${kind === 'anonymous' ? 'query' : kind} ${this.r() < 0.3 ? 'Op ' : ''}${defs} ${body}`;
    const variables: Record<string, unknown> = {};
    for (const v of this.vars) if (v.value !== undefined) variables[v.name] = v.value;
    return { query: `${op}\n${frags}`, variables };
  }

  /** The text mangled: a slice cut, repeated or replaced with punctuation. */
  garbage(text: string): string {
    const at = Math.floor(this.r() * text.length);
    const len = Math.floor(this.r() * 20);
    switch (Math.floor(this.r() * 4)) {
      case 0:
        return text.slice(0, at) + text.slice(at + len);
      case 1:
        return text.slice(0, at) + text.slice(at, at + len).repeat(1 + Math.floor(this.r() * 50)) + text.slice(at);
      case 2:
        return (
          text.slice(0, at) +
          Array.from({ length: len }, () => this.pick(['{', '}', '(', ')', '[', ']', ':', '$', '@', '!', '...', '"', '"""', '#', '\\u0000', '💥', ' '])).join(
            '',
          ) +
          text.slice(at)
        );
      default:
        return text.slice(0, at);
    }
  }
}

test('fuzz: 1,000 generated GraphQL documents (fragments, spreads, aliases, introspection, directives, variables, garbage): no 5xx, no stack trace, answers and heap bounded', async () => {
  const r = rng(20260517);
  const g = new DocumentGenerator(createApiSchema(), r);
  const cap = DEFAULT_LIMITS.maxAnswerBytes + 1024;
  const heap0 = process.memoryUsage().heapUsed;
  let heapMax = heap0;
  const seen = { data: 0, refused: 0, requestErrors: 0 };
  for (let i = 0; i < 1000; i++) {
    const { query: clean, variables } = g.document();
    const query = r() < 0.15 ? g.garbage(clean) : clean;
    const accept = r() < 0.5 ? 'application/json' : 'application/graphql-response+json';
    const how = r();
    let status: number;
    let body: string;
    if (how < 0.75) {
      const res = await shared.built.graphql(query, variables, { accept });
      [status, body] = [res.status, res.body];
    } else if (how < 0.95) {
      const params = new URLSearchParams({ query, variables: r() < 0.1 ? g.garbage(JSON.stringify(variables)) : JSON.stringify(variables) });
      if (r() < 0.1) params.set('extensions', JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } }));
      if (r() < 0.05) params.set('operationName', 'Op');
      const res = await fetch(`${shared.l.url}/graphql?${params.toString()}`, { headers: { accept } });
      [status, body] = [res.status, await res.text()];
    } else {
      const raw =
        r() < 0.5 ? JSON.stringify({ query, variables: r() < 0.5 ? JSON.stringify(variables) : [variables] }) : g.garbage(JSON.stringify({ query, variables }));
      const res = await fetch(`${shared.l.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': r() < 0.8 ? 'application/json' : 'text/plain', accept },
        body: raw,
      });
      [status, body] = [res.status, await res.text()];
    }
    assert.ok(status < 500, `request ${i}: ${status} ${body.slice(0, 300)}\n${query.slice(0, 500)}`);
    assert.ok(body.length <= cap, `request ${i}: ${body.length} characters`);
    assert.doesNotMatch(body, /at \w+ \(.*:\d+:\d+\)|node_modules/, `request ${i} leaked a stack trace`);
    if (body !== '') {
      const json = JSON.parse(body) as { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> };
      if (json.data) seen.data++;
      if (json.errors?.some((e) => e.extensions?.code === 'TOO_COMPLEX')) seen.refused++;
      if (json.data === undefined) seen.requestErrors++;
    }
    heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
  }
  // the documents are varied: many answered, some refused by the limits, many rejected as requests
  assert.ok(seen.data > 100, JSON.stringify(seen));
  assert.ok(seen.refused > 50, JSON.stringify(seen));
  assert.ok(seen.requestErrors > 100, JSON.stringify(seen));
  assert.ok(heapMax - heap0 < 512 * 1024 * 1024, `heap grew by ${((heapMax - heap0) / 1048576).toFixed(0)} MB`);
  const alive = await shared.built.graphql('{ rule(number: "702.19b") { number } }');
  assert.equal(JSON.parse(alive.body).data.rule.number, '702.19b');
});
