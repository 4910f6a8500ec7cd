import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';
import { run as ruleCli } from '../../src/cli/rule.js';
import { createMcpServer } from '../../src/integrations/mcp/createMcpServer.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { captureCli } from '../cli/corpusDb.js';
import { crFixtureText } from '../support/crFixture.js';
import { tempDir } from '../support/tempDir.js';
import { gql, type J } from '../server/helpers.js';
import { buildServer, type BuiltServer } from '../../src/server/buildServer.js';
import { listen, type Listening } from '../../src/server/listen.js';

// 2024-09-20 prints 702.175 twice (Offspring, then Impending): both answer a lookup by number, in every face.
const dir = tempDir('crkb-dup-');
const db = join(dir, 'x.db');
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const s = {} as { built: BuiltServer; l: Listening };
before(async () => {
  writeFileSync(join(dir, '2024-09-20.txt'), crFixtureText('2024-09-20'));
  const r = await runIngest({ inputs: expandInputs([dir]), dbFile: db });
  assert.deepEqual(r.rejected, []);
  const discordPublicKey = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  s.built = await buildServer({ dbFile: db, discordPublicKey, publicUrl: 'https://crkb.test', heavyThreads: 0 });
  s.l = await listen(s.built.app, 0);
});
after(async () => {
  await s.l.close();
  await s.built.close();
});

const BOTH = [/702\.175\.? Offspring/, /702\.175\.? Impending/, /Offspring is a static ability/, /Impending is a keyword/];
const both = (answer: string, face: string) => {
  // (markup aside: HTML tags, Markdown bold)
  const text = answer.replace(/<[^>]+>|\*\*/g, '');
  for (const re of BOTH) assert.match(text, re, face);
  assert.match(text, /702\.175 is printed twice in the 2024-09-20 edition|prints 702\.175 twice/, face);
};

test('crkb rule, /v1 and the web show both rules of a number printed twice', async () => {
  both((await captureCli(ruleCli, db, ['702.175', '--edition', '2024-09-20'])).out, 'cli');
  const text = await (await fetch(`${s.l.url}/v1/rules/702.175?edition=2024-09-20&format=text`)).text();
  both(text, '/v1 text');
  const json = (await (await fetch(`${s.l.url}/v1/rules/702.175?edition=2024-09-20`)).json()) as J;
  assert.deepEqual(
    json.rules.map((r: J) => `${r.number} ${r.text}`),
    [
      '702.175 Offspring',
      '702.175a Offspring is a static ability found on some creature cards. See rule 702.179a.',
      '702.175 Impending',
      '702.175a Impending is a keyword that represents four abilities.',
    ],
  );
  assert.equal(json.duplicated.number, '702.175');
  const page = await (await fetch(`${s.l.url}/cr/2024-09-20/702.175`)).text();
  both(page, 'web');
  // previous and next step past the other copy of the number (the page shows both)
  assert.match(page, /<a rel="next" href="\/cr\/2024-09-20\/702\.179"/);
  assert.match(page, /<a rel="prev" href="\/cr\/2024-09-20\/702\.1"/);
  // a number printed once says nothing of duplicates
  const once = (await (await fetch(`${s.l.url}/v1/rules/702.179?edition=2024-09-20`)).json()) as J;
  assert.equal(once.duplicated, undefined);
});

test('GraphQL: rule.duplicates and lookup.duplicated give both texts', async () => {
  const r = await gql(
    s.built,
    `{ rule(number: "702.175", edition: "2024-09-20") { text duplicates { number text } }
       lookup(q: "702.175", edition: "2024-09-20") { duplicated rules { number text } }
       once: rule(number: "702.179", edition: "2024-09-20") { duplicates { number } } }`,
  );
  assert.equal(r.json.errors, undefined, r.text);
  assert.deepEqual(
    r.json.data.rule.duplicates.map((x: J) => x.text),
    ['Offspring', 'Impending'],
  );
  assert.equal(r.json.data.lookup.duplicated, '702.175');
  assert.equal(r.json.data.lookup.rules.length, 4);
  assert.deepEqual(r.json.data.once.duplicates, []);
});

test('Discord /cr and MCP lookup_rule show both', async () => {
  const body = JSON.stringify({
    type: 2,
    data: {
      name: 'cr',
      options: [
        { name: 'number', value: '702.175' },
        { name: 'edition', value: '2024-09-20' },
      ],
    },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${s.l.url}/discord/interactions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature-timestamp': ts,
      'x-signature-ed25519': sign(null, Buffer.from(ts + body), privateKey).toString('hex'),
    },
    body,
  });
  both(((await res.json()) as J).data.content, 'discord');

  const kb = KnowledgeBase.open(db);
  const client = new Client({ name: 'crkb-test', version: '1.0.0' });
  try {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(kb).connect(b);
    await client.connect(a);
    const r = (await client.callTool({ name: 'lookup_rule', arguments: { query: '702.175', edition: '2024-09-20' } })) as { content: Array<{ text: string }> };
    both(r.content[0]!.text, 'mcp');
  } finally {
    await client.close();
    kb.close();
  }
});
