import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { fixtureServer, type J } from './helpers.js';

// One error shape per surface, whoever answers: the REST shape for /v1, feeds and Discord's
// endpoint (their routers and the fallbacks), GraphQL's for /graphql, a page for people.
const publicHex = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
let srv: Awaited<ReturnType<typeof fixtureServer>>;
before(async () => {
  srv = await fixtureServer({ discordPublicKey: publicHex, bodyLimit: 1024 });
});
after(() => srv.close());

const get = (path: string) => fetch(srv.url + path);
const post = (path: string, body: string) => fetch(srv.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/** A REST error: its status, content type and `error` object (and nothing else in the body). */
async function rest(res: Response): Promise<{ status: number; error: J }> {
  assert.match(res.headers.get('content-type')!, /^application\/json/);
  const body = (await res.json()) as J;
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(typeof body.error.message, 'string');
  return { status: res.status, error: body.error };
}

test('REST: a query error names its code, the argument and the nearest candidates; text and Markdown say the same in a line', async () => {
  assert.deepEqual(await rest(await get('/v1/rules/abc')), {
    status: 400,
    error: { code: 'BAD_USER_INPUT', message: '"abc" is not a rule number (like 702.19b)', argument: 'number' },
  });
  const nf = await rest(await get('/v1/rules/702.91?edition=2021-07-23'));
  assert.equal(nf.status, 404);
  assert.equal(nf.error.code, 'NOT_FOUND');
  assert.ok(nf.error.suggestions.includes('702.19'));
  for (const [format, type] of [
    ['text', 'text/plain'],
    ['markdown', 'text/markdown'],
  ]) {
    const r = await get(`/v1/rules/702.91?edition=2021-07-23&format=${format}`);
    assert.equal(r.status, 404);
    assert.match(r.headers.get('content-type')!, new RegExp(`^${type}`));
    assert.match(await r.text(), /^no rule 702\.91 in the 2021-07-23 edition\. Did you mean: .*702\.19/);
  }
  assert.equal((await rest(await get('/v1/search?q=x&limit=99'))).error.argument, 'limit');
  assert.equal((await rest(await get('/v1/editions/someday.json'))).error.argument, 'edition');
});

test('REST: /v1/citations answers a malformed or oversized body in the REST shape, not GraphQL’s', async () => {
  assert.deepEqual(await rest(await post('/v1/citations', '{"text": ')), { status: 400, error: { code: 'BAD_USER_INPUT', message: 'malformed JSON body' } });
  assert.deepEqual(await rest(await post('/v1/citations', '[1, 2]')), {
    status: 400,
    error: { code: 'BAD_USER_INPUT', message: 'the body must be a JSON object', argument: 'body' },
  });
  const big = await rest(await post('/v1/citations', JSON.stringify({ text: 'x'.repeat(1_100_000), asOf: '2021-06-18' })));
  assert.equal(big.status, 413);
  assert.deepEqual(big.error, { code: 'BAD_USER_INPUT', message: 'request body larger than 1048576 bytes' });
  // once the format is read, an error is in that format
  const md = await post('/v1/citations', JSON.stringify({ numbers: ['abc'], asOf: '2021-06-18', format: 'markdown' }));
  assert.equal(md.status, 400);
  assert.match(md.headers.get('content-type')!, /^text\/markdown/);
  assert.equal(await md.text(), '"abc" is not a rule number (like 702.19b).');
});

test('REST: the fallbacks, feeds and Discord’s endpoint use the same shape', async () => {
  assert.deepEqual((await rest(await get('/v1/nothing'))).status, 404);
  assert.deepEqual(await rest(await get('/v1/rules/%')), { status: 400, error: { code: 'BAD_USER_INPUT', message: 'malformed URL encoding' } });
  assert.deepEqual(await rest(await get('/feed/abc.atom')), {
    status: 400,
    error: { code: 'BAD_USER_INPUT', message: '"abc" is not a rule number (like 702.19b)', argument: 'number' },
  });
  const missing = await rest(await get('/feed/702.91.atom'));
  assert.equal(missing.status, 404);
  assert.ok(missing.error.suggestions.length > 0);
  assert.deepEqual(await rest(await post('/discord/interactions', '{"type": 1}')), {
    status: 401,
    error: { code: 'UNAUTHORIZED', message: 'missing signature headers' },
  });
});

test('GraphQL: errors stay GraphQL errors with extensions.code, from a resolver or the fallback', async () => {
  const field = (await (await post('/graphql', JSON.stringify({ query: '{ rule(number: "abc") { number } }' }))).json()) as J;
  assert.equal(field.errors[0].extensions.code, 'BAD_USER_INPUT');
  assert.equal(field.errors[0].extensions.argument, 'number');
  const big = await post('/graphql', JSON.stringify({ query: `{ editions { effectiveDate } } # ${'x'.repeat(2000)}` }));
  assert.equal(big.status, 413);
  const body = (await big.json()) as J;
  assert.deepEqual(body, { errors: [{ message: 'request body larger than 1024 bytes', extensions: { code: 'BAD_USER_INPUT' } }] });
});

test('the web: an unknown page or a malformed address is a page for people', async () => {
  const nf = await get('/nothing/here');
  assert.equal(nf.status, 404);
  assert.match(nf.headers.get('content-type')!, /^text\/html/);
  assert.match(await nf.text(), /<h1>Not found<\/h1>[\s\S]*No such page or endpoint/);
  const bad = await get('/cr/%');
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /<h1>Bad request<\/h1>[\s\S]*Malformed URL encoding/);
});
