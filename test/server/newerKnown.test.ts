import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { answerInteraction } from '../../src/integrations/discord/answerInteraction.js';
import { createMcpServer } from '../../src/integrations/mcp/createMcpServer.js';
import type { KnownEdition } from '../../src/query/knownEditions.js';
import { fixtureServer, gql, type J } from './helpers.js';

// A manifest that knows an edition newer than every stored one (the fixture's newest is 2021-07-23), in force today,
// and one announced for later (which does not count); and one that knows nothing newer.
const KNOWN: KnownEdition[] = [
  { effectiveDate: '2021-07-23', setCode: 'AFR', setName: 'Adventures in the Forgotten Realms' },
  { effectiveDate: '2024-02-02', setCode: 'MKM', setName: 'Murders at Karlov Manor' },
  { effectiveDate: '2024-07-30', setCode: 'BLB', setName: 'Bloomburrow' },
  { effectiveDate: '2999-01-01', setCode: 'ZZZ', setName: 'Far Future' },
];
const NEWER = { effectiveDate: '2024-07-30', setCode: 'BLB', setName: 'Bloomburrow', missing: 2, how: 'crkb update' };

let stale: Awaited<ReturnType<typeof fixtureServer>>;
let fresh: Awaited<ReturnType<typeof fixtureServer>>;
before(async () => {
  stale = await fixtureServer({ knownEditions: KNOWN });
  fresh = await fixtureServer({ knownEditions: KNOWN.slice(0, 1) });
});
after(async () => {
  await stale.close();
  await fresh.close();
});
const get = (s: { url: string }, path: string) => fetch(s.url + path, { cache: 'no-cache' } as RequestInit);

test('/v1 answers name the newest edition the manifest knows and the database lacks (newerKnown), null when up to date', async () => {
  const lookup = await get(stale, '/v1/lookup?q=trample&edition=2021-07-23');
  assert.deepEqual(((await lookup.json()) as J).newerKnown, NEWER);
  // an answer that says the database is behind is not cached for a year
  assert.equal(lookup.headers.get('cache-control'), 'public, max-age=300, stale-while-revalidate=86400');
  assert.deepEqual(((await (await get(stale, '/v1/search?q=trample')).json()) as J).newerKnown, NEWER);
  assert.deepEqual(((await (await get(stale, '/v1/rules/702.19b')).json()) as J).newerKnown, NEWER);
  const upToDate = await get(fresh, '/v1/lookup?q=trample&edition=2021-07-23');
  assert.equal(((await upToDate.json()) as J).newerKnown, null);
  assert.match(upToDate.headers.get('cache-control')!, /immutable/);
  assert.equal(((await (await get(fresh, '/v1/search?q=trample')).json()) as J).newerKnown, null);
});

test('chat text: one line at the end of a lookup when newer rules are known, none when up to date', async () => {
  const text = await (await get(stale, '/v1/lookup?q=702.19b&format=text')).text();
  assert.equal(text.split('\n').at(-1), 'Newer rules exist: 2024-07-30 (BLB) (and 1 edition before it) is not stored here; run crkb update.');
  const md = await (await get(stale, '/v1/lookup?q=702&format=markdown')).text();
  assert.ok(md.length <= 2000, `${md.length} characters`);
  assert.equal(md.split('\n').at(-1), '*Newer rules exist: 2024-07-30 (BLB) (and 1 edition before it) is not stored here; run `crkb update`.*');
  assert.doesNotMatch(await (await get(fresh, '/v1/lookup?q=702.19b&format=text')).text(), /Newer rules/);
});

test('Discord: /cr says newer rules exist, once, and links to the page once, cut or not', () => {
  const cr = (s: typeof stale, number: string): string => {
    const r = answerInteraction(s.kb(), { type: 2, data: { name: 'cr', options: [{ name: 'number', value: number }] } }, 'https://crkb.test');
    assert.ok('data' in r && 'content' in r.data);
    return r.data.content;
  };
  for (const n of ['702.19b', '702']) {
    const text = cr(stale, n);
    assert.ok(text.length <= 2000, `${n}: ${text.length} characters`);
    assert.equal(text.match(/Newer rules exist: 2024-07-30 \(BLB\)/g)?.length, 1, text);
    assert.equal(text.match(new RegExp(`\\(<https://crkb\\.test/cr/2021-07-23/${n.replace('.', '\\.')}>\\)`, 'g'))?.length, 1, text);
    assert.doesNotMatch(cr(fresh, n), /Newer rules/);
  }
});

test('GraphQL: Edition.newerKnown, on edition(latest) and any other', async () => {
  const q = '{ edition(edition: "latest") { effectiveDate newerKnown { effectiveDate setCode setName missing how } } }';
  const r = await gql(stale, q);
  assert.deepEqual(r.json.data.edition.newerKnown, NEWER);
  assert.equal(r.json.data.edition.effectiveDate, '2021-07-23');
  assert.equal((await gql(fresh, q)).json.data.edition.newerKnown, null);
});

test('MCP: newerKnown in every structuredContent (declared in the outputSchema), and a line in the text', async () => {
  for (const [server, expected] of [
    [stale, NEWER],
    [fresh, null],
  ] as const) {
    const mcp = createMcpServer(server.kb());
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: 'crkb-test', version: '1.0.0' });
    await client.connect(b);
    try {
      const tools = (await client.listTools()).tools;
      for (const t of tools) assert.ok((t.outputSchema?.properties as J)?.newerKnown, `${t.name} declares newerKnown`);
      const r = (await client.callTool({ name: 'lookup_rule', arguments: { query: '702.19b' } })) as J;
      assert.deepEqual(r.structuredContent.newerKnown, expected);
      assert.equal(/Newer rules exist: 2024-07-30 \(BLB\)/.test(r.content[0].text), expected !== null);
      const s = (await client.callTool({ name: 'search_rules', arguments: { query: 'trample' } })) as J;
      assert.deepEqual(s.structuredContent.newerKnown, expected);
    } finally {
      await client.close();
    }
  }
});
