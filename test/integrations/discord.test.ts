import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { fixtureDbWithLineage } from '../server/fixtures.js';
import { fixtureServer, type J } from '../server/helpers.js';

// The interactions endpoint over a loopback port, signed with a key pair made here.
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const publicHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
let url = '';
let stop: () => Promise<void>;
before(async () => {
  const db = fixtureDbWithLineage();
  db.prepare("UPDATE editions SET set_code = 'AFR' WHERE effective_date = '2021-07-23'").run();
  const srv = await fixtureServer({ discordPublicKey: publicHex, publicUrl: 'https://crkb.test' }, db);
  url = srv.url;
  stop = srv.close;
});
after(() => stop());

const now = () => String(Math.floor(Date.now() / 1000));
function send(body: unknown, o: { timestamp?: string; signature?: string | null; key?: typeof privateKey } = {}) {
  const raw = JSON.stringify(body);
  const timestamp = o.timestamp ?? now();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-signature-timestamp': timestamp };
  const sig = o.signature === undefined ? sign(null, Buffer.from(timestamp + raw), o.key ?? privateKey).toString('hex') : o.signature;
  if (sig !== null) headers['x-signature-ed25519'] = sig;
  return fetch(`${url}/discord/interactions`, { method: 'POST', headers, body: raw });
}
const command = async (name: string, options: Record<string, unknown>) => {
  const res = await send({ type: 2, data: { name, options: Object.entries(options).map(([k, value]) => ({ name: k, value })) } });
  assert.equal(res.status, 200);
  return (await res.json()) as J;
};

test('a good signature gets PONG; a bad, missing or replayed one gets 401', async () => {
  const ok = await send({ type: 1 });
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { type: 1 });
  const other = generateKeyPairSync('ed25519').privateKey;
  assert.equal((await send({ type: 1 }, { key: other })).status, 401);
  assert.equal((await send({ type: 1 }, { signature: null })).status, 401);
  assert.equal((await send({ type: 1 }, { signature: 'ab'.repeat(64) })).status, 401);
  const old = await send({ type: 1 }, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) });
  assert.equal(old.status, 401);
  assert.match(((await old.json()) as J).error.message, /stale timestamp/);
  // the very same signed request sent twice (Ed25519 signatures are deterministic; real interactions carry unique ids)
  const timestamp0 = now();
  const signature0 = sign(null, Buffer.from(`${timestamp0}{"type":1,"id":"42"}`), privateKey).toString('hex');
  const again = () =>
    fetch(`${url}/discord/interactions`, {
      method: 'POST',
      headers: { 'x-signature-timestamp': timestamp0, 'x-signature-ed25519': signature0 },
      body: '{"type":1,"id":"42"}',
    });
  assert.equal((await again()).status, 200);
  const replay = await again();
  assert.equal(replay.status, 401);
  assert.match(((await replay.json()) as J).error.message, /replayed/);
  // a body altered after signing
  const timestamp = now();
  const signature = sign(null, Buffer.from(timestamp + '{"type":1}'), privateKey).toString('hex');
  const tampered = await fetch(`${url}/discord/interactions`, {
    method: 'POST',
    headers: { 'x-signature-timestamp': timestamp, 'x-signature-ed25519': signature },
    body: '{"type":2}',
  });
  assert.equal(tampered.status, 401);
});

test('/cr answers a chat-sized message with a link to the web page, in an edition given by set code', async () => {
  const r = await command('cr', { number: '702.19b' });
  assert.equal(r.type, 4);
  assert.match(r.data.content, /^\*\*702\.19b\*\* The controller of an attacking creature with trample/);
  assert.match(r.data.content, /\[Read it on crkb\]\(<https:\/\/crkb\.test\/cr\/2021-07-23\/702\.19b>\)$/);
  assert.equal(r.data.flags, undefined);
  const long = await command('cr', { number: '707.10', edition: 'AFR', ephemeral: true });
  assert.ok(long.data.content.length <= 2000);
  assert.match(long.data.content, /707\.10[a-z]–707\.10z not shown; the rest\]\(<https:\/\/crkb\.test\/cr\/2021-07-23\/707\.10>\)$/);
  assert.equal(long.data.flags, 64);
});

test('/define, /search, /diff and /history', async () => {
  const d = await command('define', { term: 'what is dies' });
  assert.match(d.data.content, /^\*\*Dies\*\*: A creature or planeswalker/);
  assert.match(d.data.content, /\*\*700\.4\.\*\* The term dies/);
  const s = await command('search', { query: 'trample', edition: '2021-06-18' });
  assert.match(s.data.content, /^- \*\*702\.19[a-c]?\*\* .*\*\*trample\*\*/im);
  assert.match(s.data.content, /\(<https:\/\/crkb\.test\/search\?q=trample&edition=2021-06-18>\)$/);
  const diff = await command('diff', { from: '2021-06-18', to: '2021-07-23', section: '707' });
  assert.match(diff.data.content, /^\*\*2021-06-18 → 2021-07-23\*\* \(707\): \d+ changed rules/);
  assert.match(diff.data.content, /~ \*\*706\.10\*\* → \*\*707\.10\*\*/);
  assert.match(diff.data.content, /\(<https:\/\/crkb\.test\/diff\/2021-06-18\/2021-07-23\?section=707>\)$/);
  const h = await command('history', { number: '707.10' });
  assert.match(h.data.content, /^\*\*707\.10\*\*: numbered 706\.10 → 707\.10/);
  assert.match(h.data.content, /- 2021-07-23 \*\*707\.10\.\*\* renumbered from 706\.10/);
  assert.match(h.data.content, /\(<https:\/\/crkb\.test\/history\/707\.10>\)$/);
  const bad = await command('cr', { number: '702.99' });
  assert.equal(bad.data.flags, 64);
  assert.match(bad.data.content, /no rule 702\.99 .*Did you mean/);
  const badEdition = await command('cr', { number: '702.19', edition: 'someday' });
  assert.match(badEdition.data.content, /edition "someday" is not a date/);
  const odd = await send({ type: 2, data: { name: 7, options: { number: 1 } } });
  assert.equal(odd.status, 200);
  assert.match(((await odd.json()) as J).data.content, /unknown command/);
});

test('autocomplete (type 4) answers choices (type 8) for numbers, terms and editions', async () => {
  const ask = async (name: string, options: Array<Record<string, unknown>>) => {
    const res = await send({ type: 4, data: { name, options } });
    const j = (await res.json()) as J;
    assert.equal(j.type, 8);
    return j.data.choices as Array<{ name: string; value: string }>;
  };
  const numbers = await ask('cr', [{ name: 'number', value: '702.19', focused: true }]);
  assert.deepEqual(
    numbers.map((c) => c.value),
    ['702.19', '702.19a', '702.19b', '702.19c'],
  );
  assert.match(numbers[1]!.name, /^702\.19a Trample is a static ability/);
  assert.ok(numbers.every((c) => c.name.length <= 100));
  const terms = await ask('define', [{ name: 'term', value: 'de', focused: true }]);
  assert.deepEqual(
    terms.map((c) => c.value),
    ['Devotion'],
  );
  const editions = await ask('diff', [{ name: 'from', value: 'afr', focused: true }]);
  assert.deepEqual(
    editions.map((c) => c.value),
    ['2021-07-23'],
  );
});
