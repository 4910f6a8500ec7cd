import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LineTransport, MAX_LINE_BYTES } from '../../src/integrations/mcp/LineTransport.js';
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
  assert.deepEqual(
    old.data.rules.map((x: J) => x.number),
    ['502.9', '502.9a', '502.9b'],
  );
});

test('search_rules and define_term', async () => {
  const s = await call('search_rules', { query: 'trample blocked', limit: 3 });
  assert.ok(s.data.hits.length > 0);
  assert.ok(s.data.hits.every((h: J) => /trample/i.test(h.snippet)));
  const d = await call('define_term', { term: 'what is dies' });
  assert.equal(d.data.term, 'Dies');
  assert.deepEqual(
    d.data.rules.map((x: J) => x.number),
    ['700.4'],
  );
  // a misspelt term is answered as lookup_rule answers it; no term near it is NOT_FOUND
  const typo = await call('define_term', { term: 'devotoin' });
  assert.equal(typo.isError, false);
  assert.equal(typo.data.term, 'Devotion');
  assert.match(typo.text, /Showing “Devotion”/);
  const missing = await call('define_term', { term: 'zzyzxqw' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /no glossary term "zzyzxqw"/);
});

test('diff_editions, rule_history and check_citations', async () => {
  const d = await call('diff_editions', { from: '2021-06-18', to: '2021-07-23', section: '707' });
  assert.ok(d.data.changes.some((c: J) => c.before === '706.10' && c.after === '707.10' && c.renumbered));
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

/** `crkb mcp` spoken to in raw JSON-RPC lines: writes `lines`, returns the replies once one has id `until`. */
async function rawSession(lines: Array<string | Buffer>, until: number): Promise<{ replies: J[]; code: number | null }> {
  const db = path.join(dir, 'x.db');
  const p = spawn(process.execPath, ['bin/crkb.js', 'mcp', '--db', db], { stdio: ['pipe', 'pipe', 'inherit'] });
  p.stdin.on('error', () => {}); // a session that ended may have closed its stdin
  const replies: J[] = [];
  let rest = '';
  const done = new Promise<void>((resolve) => {
    p.stdout.on('data', (d: Buffer) => {
      const parts = (rest + d.toString('utf8')).split('\n');
      rest = parts.pop()!;
      for (const l of parts) replies.push(JSON.parse(l));
      if (replies.some((r) => r.id === until)) resolve();
    });
    p.on('exit', () => resolve());
    // a session that stopped reading answers nothing more: give up (generously) rather than hang
    setTimeout(resolve, 30_000).unref();
  });
  for (const l of lines) p.stdin.write(l);
  await done;
  p.stdin.end();
  const code = await new Promise<number | null>((resolve) => (p.exitCode !== null ? resolve(p.exitCode) : p.on('exit', resolve)));
  return { replies, code };
}

const rpc = (m: object): string => `${JSON.stringify(m)}\n`;

test('a line over 10 MB is answered with a JSON-RPC error and the session serves the next requests', async () => {
  const big = Buffer.alloc(MAX_LINE_BYTES + 100, 'x');
  big.write('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":"');
  big.write('"}}\n', big.length - 4);
  const { replies, code } = await rawSession(
    [
      rpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
      rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      big,
      'not json\n',
      rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lookup_rule', arguments: { query: '702.19b' } } }),
    ],
    3,
  );
  assert.deepEqual(
    replies.filter((r) => r.error),
    [
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'message line longer than 10485760 bytes (10 MB): skipped' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: `parse error: Unexpected token 'o', "not json" is not valid JSON` } },
    ],
  );
  assert.match(replies.find((r) => r.id === 3)?.result.content[0].text, /^\*\*702\.19b\*\*/);
  assert.equal(
    replies.some((r) => r.id === 2),
    false,
  );
  assert.equal(code, 0);
});

test('the line transport reads lines split across chunks and skips a long one without holding it', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const t = new LineTransport(input, output, 64);
  const got: J[] = [];
  t.onmessage = (m) => got.push(m);
  await t.start();
  const ping = rpc({ jsonrpc: '2.0', id: 1, method: 'ping' });
  input.write(ping.slice(0, 10));
  input.write(ping.slice(10).replace('\n', '\r\n') + 'x'.repeat(50));
  input.write('y'.repeat(50));
  assert.equal((t as unknown as { length: number }).length, 0, 'the long line is not kept');
  input.write('z\n' + rpc({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '{"id": 7}\n');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    got.map((m) => m.id),
    [1, 2],
  );
  const errors = String(output.read())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    errors.map((e) => [e.id, e.error.code]),
    [
      [null, -32600],
      [7, -32600],
    ],
  );
  await t.close();
});
