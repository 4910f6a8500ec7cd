import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { projectRoot } from '../../src/core/projectFiles.js';
import { createMcpServer } from '../../src/integrations/mcp/createMcpServer.js';
import { expandAbbreviation } from '../../src/query/abbreviations.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { fixtureDbWithLineage } from './fixtures.js';
import { fixtureServer, gql } from './helpers.js';

// The names Object.prototype answers to: as a plain object's key, each finds something that is not data.
const WORDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf', '__defineGetter__'];

let server: Awaited<ReturnType<typeof fixtureServer>>;
const logged: unknown[][] = [];
const consoleError = console.error;
before(async () => {
  server = await fixtureServer({}, fixtureDbWithLineage());
  console.error = (...args: unknown[]) => void logged.push(args);
});
after(async () => {
  console.error = consoleError;
  await server.close();
});

test('abbreviations are a Map: Object.prototype names expand to nothing', () => {
  for (const w of WORDS) assert.deepEqual(expandAbbreviation(w), [], w);
  assert.deepEqual(expandAbbreviation(' SBA '), ['State-Based Actions']);
});

test('REST and the web app answer Object.prototype names with a normal answer, nothing logged', async () => {
  const seen: string[] = [];
  for (const w of WORDS) {
    const e = encodeURIComponent(w);
    const paths = [
      `/v1/lookup?q=${e}`,
      `/v1/lookup?q=define%20${e}`,
      `/v1/lookup?q=what%20is%20${e}&format=text`,
      `/v1/lookup?q=702.19b&edition=${e}`,
      `/v1/lookup?q=trample&${e}=1`,
      `/v1/search?q=${e}`,
      `/v1/rules/${e}`,
      `/v1/rules/702.19b?edition=${e}`,
      `/v1/editions/${e}.json`,
      `/search?q=${e}`,
      `/search?q=trample&edition=${e}`,
      `/cr/${e}`,
      `/cr/latest/${e}`,
      `/cr?number=${e}`,
      `/history/${e}`,
      `/diff/${e}/latest`,
      `/feed/${e}.atom`,
      `/${e}`,
    ];
    for (const p of paths) {
      const res = await fetch(server.url + p);
      await res.arrayBuffer();
      seen.push(`${res.status} ${p}`);
    }
  }
  const bad = seen.filter((s) => !/^(200|400|404) /.test(s));
  assert.deepEqual(bad, []);
  // a lookup finds nothing (or the nearest word), as for any unknown word
  assert.ok(seen.includes('200 /v1/lookup?q=__proto__'), seen.filter((s) => s.includes('/v1/lookup?q=__proto__')).join('\n'));
  assert.deepEqual(logged, []);
});

test('GraphQL answers Object.prototype names without an internal error', async () => {
  for (const w of WORDS) {
    const v = { w };
    for (const q of [
      'query($w: String!) { lookup(q: $w) { kind } }',
      'query($w: String!) { search(query: $w) { totalCount } }',
      'query($w: String!) { rule(number: $w) { number } }',
      'query($w: String!) { glossary(term: $w) { term } }',
      'query($w: String!) { glossaryHistory(term: $w) { term } }',
      'query($w: String!) { rule(number: "702.19b", edition: $w) { number } }',
    ]) {
      const r = await gql(server, q, v);
      assert.ok(r.status < 500, `${w}: ${q}: ${r.text}`);
      assert.doesNotMatch(r.text, /INTERNAL_SERVER_ERROR/, `${w}: ${q}`);
    }
  }
  assert.deepEqual(logged, []);
});

test('MCP tools answer Object.prototype names (nothing found is the answer, not an internal error)', async () => {
  const kb = new KnowledgeBase(fixtureDbWithLineage());
  const mcp = createMcpServer(kb);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const client = new Client({ name: 'crkb-test', version: '1.0.0' });
  await client.connect(b);
  try {
    for (const w of WORDS) {
      for (const [name, args] of [
        ['lookup_rule', { query: w }],
        ['define_term', { term: w }],
        ['search_rules', { query: w }],
        ['rule_history', { number: w }],
        ['lookup_rule', { query: '702.19b', edition: w }],
      ] as const) {
        const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }>; isError?: boolean };
        // a refusal from the query layer names the argument or what was not found
        if (r.isError) assert.match(r.content[0]!.text, /^(edition: |number: )|no glossary term/, `${name} ${w}: ${r.content[0]!.text}`);
      }
    }
  } finally {
    await client.close();
    kb.close();
  }
});

test('crkb refuses an Object.prototype name as a command like any unknown command', () => {
  const bin = `${projectRoot()}/bin/crkb.js`;
  for (const w of ['constructor', '__proto__', 'toString']) {
    const r = spawnSync(process.execPath, [bin, w], { encoding: 'utf8' });
    assert.equal(r.status, 1, w);
    assert.match(r.stderr, new RegExp(`^crkb: unknown command "${w}"`), w);
  }
});

test('lint refuses a plain object as a table keyed by any string, and `in` with a computed key', async () => {
  // the rule needs no type information (and the probe is a file no TypeScript project holds)
  const eslint = new ESLint({ cwd: projectRoot(), overrideConfig: [tseslint.configs.disableTypeChecked] });
  const code = "const T: Record<string, string> = { a: 'b' };\nexport const f = (k: string): unknown => (k in T ? T[k] : null);\n";
  const [r] = await eslint.lintText(code, { filePath: `${projectRoot()}/src/query/probe.ts` });
  assert.equal(r!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').length, 2);
});
