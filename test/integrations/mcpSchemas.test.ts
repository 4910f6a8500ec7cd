import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { corpusDb } from '../cli/corpusDb.js';
import { createMcpServer } from '../../src/integrations/mcp/createMcpServer.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import type { J } from '../server/helpers.js';

// The MCP server in-process over the real corpus, spoken to with the official SDK's client (which
// checks structuredContent against each tool's outputSchema itself); checked again here with ajv.
const dbFile = corpusDb();
let kb: KnowledgeBase;
let client: Client;
const schemas = new Map<string, object>();
before(async () => {
  kb = KnowledgeBase.open(dbFile());
  const server = createMcpServer(kb);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'crkb-test', version: '1.0.0' });
  await client.connect(b);
  for (const t of (await client.listTools()).tools) if (t.outputSchema) schemas.set(t.name, t.outputSchema);
});
after(async () => {
  await client.close();
  kb.close();
});

const ajv = new Ajv({ strict: false });
const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text: string }>; structuredContent?: J; isError?: boolean };
  const bytes = Buffer.byteLength(JSON.stringify(r));
  if (r.isError !== true) {
    const validate = ajv.compile(schemas.get(name)!);
    assert.ok(validate(r.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`);
  }
  return { text: r.content[0]!.text, data: r.structuredContent, isError: r.isError === true, bytes };
};

test('every tool declares an outputSchema, and its answers validate against it', async () => {
  assert.deepEqual([...schemas.keys()].sort(), ['check_citations', 'define_term', 'diff_editions', 'lookup_rule', 'rule_history', 'search_rules']);
  await call('lookup_rule', { query: 'deathtouch trample' });
  await call('lookup_rule', { query: '702.19b ex 1' });
  await call('search_rules', { query: 'comabt damage' });
  await call('define_term', { term: 'dies' });
  await call('diff_editions', { from: '2009-05-01', to: '2009-07-11' });
  await call('rule_history', { number: '702.19b' });
  await call('check_citations', { numbers: ['502.9b', '212.6'], asOf: '2009-05-01' });
});

test('provenance names the source file and its sha256, never a local path', async () => {
  const r = await call('lookup_rule', { query: '702.19b', edition: '2021-07-23' });
  const p = r.data.provenance[0];
  assert.match(p.sha256, /^[0-9a-f]{64}$/);
  assert.ok(typeof p.source === 'string' && p.source.length > 0 && !/[/\\]/.test(p.source), p.source);
  assert.ok(!r.text.includes('/work/') && !JSON.stringify(r.data).includes('../shared'), 'no path in the answer');
});

test('history and diff answers are bounded and page', async () => {
  // the Magic 2010 rewrite renumbered almost every rule
  const d = await call('diff_editions', { from: '2009-05-01', to: '2009-07-11' });
  assert.ok(d.bytes < 20_000, `${d.bytes} bytes`);
  assert.ok(d.data.total > d.data.changes.length && d.data.next === d.data.changes.length);
  const d2 = await call('diff_editions', { from: '2009-05-01', to: '2009-07-11', offset: d.data.next });
  assert.equal(d2.data.offset, d.data.next);
  assert.notDeepEqual(d2.data.changes[0], d.data.changes[0]);
  const h = await call('rule_history', { number: '702.19b', limit: 1 });
  assert.ok(h.bytes < 20_000, `${h.bytes} bytes`);
  assert.equal(h.data.steps.length, 1);
  assert.ok(h.data.total >= 2 && h.data.next === 1);
});

test('define_term is as typo tolerant as lookup_rule, and finds the Legend Rule', async () => {
  const typo = await call('define_term', { term: 'deathtuch' });
  assert.equal(typo.isError, false);
  assert.equal(typo.data.glossary[0].term, 'Deathtouch');
  const legend = await call('define_term', { term: 'legend rule' });
  assert.equal(legend.isError, false);
  assert.equal(legend.data.glossary[0].term, 'Legend Rule');
  assert.doesNotMatch(legend.text, /No rule or term/);
  const none = await call('define_term', { term: 'qwertyuiop' });
  assert.equal(none.isError, true);
});

test('the largest page a history or diff may ask for stays under 25 KB', async () => {
  const d = await call('diff_editions', { from: '2009-05-01', to: '2009-07-11', limit: 25 });
  assert.ok(d.bytes < 25_000, `diff: ${d.bytes} bytes`);
  const h = await call('rule_history', { number: '702.19b', limit: 25 });
  assert.ok(h.bytes < 25_000, `history: ${h.bytes} bytes`);
  const over = await client.callTool({ name: 'diff_editions', arguments: { from: '2009-05-01', to: '2009-07-11', limit: 26 } });
  assert.equal(over.isError, true);
});

test('check_citations of a text citing hundreds of rules is bounded and pages, with counts over all', async () => {
  // every rule of sections 100-799 of the 2009-05-01 edition, checked in the latest (the Magic 2010 rewrite moved most)
  const edition = kb.resolveEdition('2009-05-01', 'cr', 'asOf').edition;
  const cited = kb
    .rulesPage(edition.id, { limit: 5000 })
    .map((r) => r.number)
    .filter((n) => /^[1-7]\d\d\.\d+[a-z]?$/.test(n))
    .slice(0, 900);
  assert.ok(cited.length >= 500, `${cited.length} rules cited`);
  const text = cited.map((n) => `See rule ${n}.`).join(' ');
  const first = await call('check_citations', { text, asOf: '2009-05-01', limit: 25 });
  assert.equal(first.data.total, cited.length);
  assert.equal(
    Object.values(first.data.counts as Record<string, number>).reduce((a, b) => a + b, 0),
    cited.length,
  );
  assert.ok(first.data.counts.moved > 0 && first.data.counts.gone > 0, JSON.stringify(first.data.counts));
  assert.match(first.text, /ask again with offset 25/);
  // the first page, the next, and the last (each check is of every citation: three pages keep the test quick)
  const next = await call('check_citations', { text, asOf: '2009-05-01', limit: 25, offset: first.data.next });
  const last = await call('check_citations', { text, asOf: '2009-05-01', limit: 25, offset: cited.length - 10 });
  for (const [page, at] of [
    [first, 0],
    [next, 25],
    [last, cited.length - 10],
  ] as const) {
    assert.ok(page.bytes < 25_000, `page at ${at}: ${page.bytes} bytes`);
    assert.ok(Buffer.byteLength(page.text) < 20_000, `text at ${at}: ${Buffer.byteLength(page.text)} bytes`);
    assert.equal(page.data.offset, at);
    assert.deepEqual(
      page.data.citations.map((c: J) => c.cited),
      cited.slice(at, at + 25),
    );
  }
  assert.equal(last.data.next, null);
  const dflt = await call('check_citations', { text, asOf: '2009-05-01' });
  assert.equal(dflt.data.citations.length, 20);
  assert.equal(dflt.data.next, 20);
  const over = await client.callTool({ name: 'check_citations', arguments: { text, asOf: '2009-05-01', limit: 26 } });
  assert.equal(over.isError, true);
});
