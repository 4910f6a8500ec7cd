import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { buildServer, type BuiltServer } from '../../src/server/buildServer.js';
import { heavyKindOf } from '../../src/server/forwardHeavy.js';
import { listen, type Listening } from '../../src/server/listen.js';
import { copyFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDb } from '../cli/corpusDb.js';
import { tempDir } from '../support/tempDir.js';
import { log } from '../../src/server/logger.js';
import { fixtureDb } from './fixtures.js';

const dbFile = corpusDb();
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const discordPublicKey = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');

/** A server over the corpus database on a loopback port, costly requests on a worker thread or inline. */
async function serve(opts: Parameters<typeof buildServer>[0]): Promise<BuiltServer & { url: string; l: Listening }> {
  const built = await buildServer({ publicUrl: 'https://crkb.test', discordPublicKey, responseCache: false, ...opts });
  const l = await listen(built.app, 0);
  return { ...built, url: l.url, l };
}

let pooled: Awaited<ReturnType<typeof serve>>;
let inline: Awaited<ReturnType<typeof serve>>;
before(async () => {
  pooled = await serve({ dbFile: dbFile(), heavyThreads: 1 });
  inline = await serve({ dbFile: dbFile(), heavyThreads: 0 });
});
after(async () => {
  for (const s of [pooled, inline]) {
    await s.l.close();
    await s.close();
  }
});

test('costly requests are told apart from cheap ones by method and path', () => {
  assert.equal(heavyKindOf('GET', '/diff'), 'diff');
  assert.equal(heavyKindOf('GET', '/diff/2009-05-01/latest'), 'diff');
  assert.equal(heavyKindOf('GET', '/feed.atom'), 'diff');
  assert.equal(heavyKindOf('GET', '/history/702.19b'), 'history');
  assert.equal(heavyKindOf('GET', '/feed/702.19b.atom'), 'history');
  assert.equal(heavyKindOf('GET', '/cr/latest/702'), 'page');
  assert.equal(heavyKindOf('GET', '/cr/2021-07-23/glossary'), 'page');
  assert.equal(heavyKindOf('GET', '/v1/editions/latest.json'), 'export');
  assert.equal(heavyKindOf('POST', '/v1/citations'), 'citations');
  for (const cheap of ['/cr/latest/702.19b', '/cr/latest', '/v1/lookup', '/v1/rules/702.19b', '/search', '/', '/graphql']) {
    assert.equal(heavyKindOf('GET', cheap), null, cheap);
  }
});

const signed = (body: unknown) => {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const sig = sign(null, Buffer.from(timestamp + raw), privateKey).toString('hex');
  return { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature-timestamp': timestamp, 'x-signature-ed25519': sig }, body: raw };
};

test('an answer from the worker thread is the answer given inline: status, type, cache headers and body', async () => {
  const gets = [
    '/diff/2009-05-01/2009-07-11',
    '/diff/2021-06-18/latest?section=702&view=side',
    '/diff/2021-06-18/nonsense',
    '/history/702.19b?edition=2021-07-23',
    '/cr/2021-07-23/702',
    '/cr/latest/glossary',
    '/v1/editions/2021-07-23.json',
    '/v1/editions/1900-01-01.json',
    '/feed.atom',
    '/feed/707.10.atom',
  ];
  for (const path of gets) {
    const [a, b] = await Promise.all([fetch(pooled.url + path), fetch(inline.url + path)]);
    assert.equal(a.status, b.status, path);
    for (const h of ['content-type', 'etag', 'cache-control']) assert.equal(a.headers.get(h), b.headers.get(h), `${path}: ${h}`);
    assert.equal(await a.text(), await b.text(), path);
  }
  const cite = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'See rule 706.10 and 702.19b.', asOf: '2021-06-18' }),
  };
  const [c1, c2] = await Promise.all([fetch(pooled.url + '/v1/citations', cite), fetch(inline.url + '/v1/citations', cite)]);
  assert.equal(c1.status, 200);
  assert.equal(await c1.text(), await c2.text());
  const bad = await fetch(pooled.url + '/v1/citations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text": ' });
  assert.equal(bad.status, 400);
  // a Discord command that computes a diff: signed here, checked and answered on the worker thread
  const diff = {
    type: 2,
    data: {
      name: 'diff',
      options: [
        { name: 'from', value: '2021-06-18' },
        { name: 'to', value: '2021-07-23' },
      ],
    },
  };
  const [d1, d2] = await Promise.all([fetch(pooled.url + '/discord/interactions', signed(diff)), fetch(inline.url + '/discord/interactions', signed(diff))]);
  assert.equal(d1.status, 200);
  const j1 = (await d1.json()) as { type: number; data: { content: string } };
  assert.equal(j1.type, 4);
  assert.equal(j1.data.content, ((await d2.json()) as typeof j1).data.content);
});

test('a revalidation gets 304 for a forwarded page, as for any other', async () => {
  const r = await fetch(pooled.url + '/history/702.19b?edition=2021-07-23');
  const etag = r.headers.get('etag')!;
  const again = await fetch(pooled.url + '/history/702.19b?edition=2021-07-23', { headers: { 'if-none-match': etag }, cache: 'no-cache' } as RequestInit);
  assert.equal(again.status, 304);
});

test('a costly request past its budget is stopped (503, Retry-After) and the next one is answered', async (t) => {
  // (the history's bounds are generous: on a loaded machine the replacement thread takes seconds to load)
  const s = await serve({ dbFile: dbFile(), heavyThreads: 1, heavyLimits: { diff: { budgetMs: 1 }, history: { waitMs: 120_000, budgetMs: 120_000 } } });
  const logged: string[] = [];
  t.mock.method(log, 'warn', (...a: unknown[]) => void logged.push(JSON.stringify(a)));
  try {
    const r = await fetch(s.url + '/diff/2009-05-01/2021-07-23', { headers: { accept: 'text/html' } });
    assert.equal(r.status, 503);
    assert.ok(Number(r.headers.get('retry-after')) > 0);
    assert.match(await r.text(), /took longer than 0\.001 s and was stopped/);
    const api = await fetch(s.url + '/feed.atom');
    assert.equal(api.status, 503);
    assert.equal(((await api.json()) as { error: { code: string } }).error.code, 'TIMEOUT');
    // the terminated thread was replaced: other kinds are answered by the new one
    const h = await fetch(s.url + '/history/702.19b?edition=2021-07-23');
    assert.equal(h.status, 200);
    assert.match(await h.text(), /702\.19b/);
    assert.ok(
      logged.some((l) => /"budgetMs":1,"method":"GET","url":"\/diff\/2009-05-01\/2021-07-23".*ran past its budget and was stopped/.test(l)),
      logged.join('\n'),
    );
  } finally {
    await s.l.close();
    await s.close();
  }
});

test('a full queue refuses at once with 503 BUSY, and cheap requests are answered while costly ones run', async () => {
  const s = await serve({ dbFile: dbFile(), heavyThreads: 1, heavyLimits: { diff: { queue: 2 } } });
  try {
    const order: string[] = [];
    const far = ['2009-05-01/2021-07-23', '2009-07-11/2021-06-18', '2009-05-01/2021-06-18', '2009-07-11/2021-07-23'].map((p) =>
      fetch(`${s.url}/diff/${p}`).then(async (r) => {
        order.push(`diff ${r.status}`);
        return { status: r.status, retry: r.headers.get('retry-after'), body: await r.text() };
      }),
    );
    const cheap = await fetch(s.url + '/v1/lookup?q=trample&edition=2021-07-23&format=text');
    order.push(`lookup ${cheap.status}`);
    assert.equal(cheap.status, 200);
    const done = await Promise.all(far);
    const busy = done.filter((d) => d.status === 503);
    assert.equal(busy.length, 2, order.join(', '));
    assert.equal(done.filter((d) => d.status === 200).length, 2);
    for (const b of busy) {
      assert.equal(b.retry, '5');
      assert.match(b.body, /busy with 2 costly diff requests/);
    }
    // the cheap answer did not wait for the diffs being computed
    const firstOk = order.findIndex((o) => o === 'diff 200');
    assert.ok(order.indexOf('lookup 200') < firstOk, order.join(', '));
  } finally {
    await s.l.close();
    await s.close();
  }
});

test('a replaced worker thread opens the file this process verified, not what the path names now', async () => {
  const dir = tempDir('crkb-heavy-');
  const file = join(dir, 'crkb.db');
  copyFileSync(dbFile(), file);
  const s = await serve({ dbFile: file, heavyThreads: 1, heavyLimits: { diff: { budgetMs: 1 } } });
  const oe = console.error;
  const logged: string[] = [];
  console.error = (...a: unknown[]) => void logged.push(a.map(String).join(' '));
  try {
    // another database renamed into place, then the worker thread terminated and started again
    fixtureDb(join(dir, 'other.db')).close();
    renameSync(join(dir, 'other.db'), file);
    assert.equal((await fetch(s.url + '/diff/2009-05-01/2021-07-23')).status, 503, logged.join('\n'));
    const h = await fetch(s.url + '/history/707.10?edition=2021-07-23');
    assert.equal(h.status, 200);
    assert.match(await h.text(), /2009-07-11/);
  } finally {
    console.error = oe;
    await s.l.close();
    await s.close();
  }
});

test('a costly GraphQL operation runs on the worker thread: the same answer as inline, errors and locations included', async () => {
  const queries: Array<[string, Record<string, unknown> | undefined]> = [
    [
      '{ diff(from: "2021-06-18", to: "2021-07-23", section: "700") { counts { added removed } nodes { before { number } after { number } textChange } } }',
      undefined,
    ],
    [
      'query Q($f: String!) { diff(from: $f, to: "latest", first: 3) { counts { added } nodes { textChange } } x: rule(number: "999.9") { text } }',
      { f: '2009-05-01' },
    ],
    ['{ diff(from: "2021-06-18", to: "nonsense") { counts { added } }\n  edition { effectiveDate } }', undefined],
  ];
  for (const [q, v] of queries) {
    const [a, b] = await Promise.all([pooled.graphql(q, v), inline.graphql(q, v)]);
    assert.equal(a.status, b.status, q);
    assert.equal(a.body, b.body, q);
  }
  const s = await serve({ dbFile: dbFile(), heavyThreads: 1, heavyLimits: { graphql: { budgetMs: 1 } } });
  const oe = console.error;
  console.error = () => {};
  try {
    const r = JSON.parse((await s.graphql('{ diff(from: "2009-05-01", to: "2021-07-23") { counts { added } } }')).body) as {
      data: unknown;
      errors: Array<{ extensions: { code: string } }>;
    };
    assert.equal(r.data, null);
    assert.equal(r.errors[0]!.extensions.code, 'TIMEOUT');
    // a cheap operation is still answered inline
    const cheap = JSON.parse((await s.graphql('{ rule(number: "702.19b", edition: "2021-07-23") { number } }')).body) as { data: { rule: { number: string } } };
    assert.equal(cheap.data.rule.number, '702.19b');
  } finally {
    console.error = oe;
    await s.l.close();
    await s.close();
  }
});
