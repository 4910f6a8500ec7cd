import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixtureDbWithLineage } from '../server/fixtures.js';
import type { J } from '../server/helpers.js';

// `crkb mcp` spawned as an assistant would, spoken to over stdio with the official client.
let dir = '';
let client: Client;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crkb-mcp-'));
  const db = path.join(dir, 'x.db');
  fixtureDbWithLineage(db).close();
  client = new Client({ name: 'crkb-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/crkb.js', 'mcp', '--db', db], stderr: 'inherit' }));
});
after(async () => {
  await client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text: string }>; structuredContent?: J; isError?: boolean };
  return { text: r.content[0]!.text, data: r.structuredContent, isError: r.isError === true };
};

test('initialize and list the tools', async () => {
  assert.equal(client.getServerVersion()?.name, 'crkb');
  const tools = (await client.listTools()).tools;
  assert.deepEqual(tools.map((t) => t.name).sort(), ['check_citations', 'define_term', 'diff_editions', 'lookup_rule', 'rule_history', 'search_rules']);
  for (const t of tools) assert.ok(t.description && t.description.length > 20, t.name);
});

test('lookup_rule in any edition, with provenance', async () => {
  const r = await call('lookup_rule', { query: '702.19b', edition: '2021-06-18', examples: true });
  assert.equal(r.isError, false);
  assert.match(r.text, /^\*\*702\.19b\*\* The controller of an attacking creature with trample/);
  assert.match(r.text, /Source: Comprehensive Rules effective 2021-06-18/);
  assert.equal(r.data.rules[0].examples.length, 2);
  assert.equal(r.data.provenance[0].effectiveDate, '2021-06-18');
  assert.ok('sha256' in r.data.provenance[0]);
  const old = await call('lookup_rule', { query: 'trample', edition: '2008-10-01' });
  assert.deepEqual(old.data.rules.map((x: J) => x.number), ['502.9', '502.9a', '502.9b']);
});

test('search_rules and define_term', async () => {
  const s = await call('search_rules', { query: 'trample blocked', limit: 3 });
  assert.ok(s.data.hits.length > 0);
  assert.ok(s.data.hits.every((h: J) => /trample/i.test(h.snippet)));
  const d = await call('define_term', { term: 'what is dies' });
  assert.equal(d.data.term, 'Dies');
  assert.deepEqual(d.data.rules.map((x: J) => x.number), ['700.4']);
  const missing = await call('define_term', { term: 'devotoin' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /no glossary term "devotoin".*Did you mean: Devotion/);
});

test('diff_editions, rule_history and check_citations', async () => {
  const d = await call('diff_editions', { from: '2021-06-18', to: '2021-07-23', section: '707' });
  assert.ok(d.data.changes.some((c: J) => c.before?.number === '706.10' && c.after?.number === '707.10' && c.renumbered));
  assert.equal(d.data.provenance.length, 2);
  const h = await call('rule_history', { number: '707.10' });
  assert.deepEqual(h.data.numbers, ['706.10', '707.10']);
  const c = await call('check_citations', { text: 'See rule 706.10.', asOf: '2021-06-18' });
  assert.equal(c.data.citations[0].status, 'moved');
  assert.equal(c.data.citations[0].now.number, '707.10');
  assert.match(c.text, /\| 706\.10 \| moved \| 707\.10\. \|/);
  const bad = await call('diff_editions', { from: 'someday', to: 'latest' });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /^from: edition "someday"/);
});
