import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { doc, fixtureDb } from './fixtures.js';
import { fixtureServer } from './helpers.js';

let srv: Awaited<ReturnType<typeof fixtureServer>>;
before(async () => {
  srv = await fixtureServer({ publicUrl: 'https://crkb.test' });
});
after(() => srv.close());

// cache 'no-cache': with the default mode, fetch adds "Cache-Control: no-cache" to conditional requests,
// which (rightly) makes the server answer in full instead of 304.
const get = (path: string, headers: Record<string, string> = {}) => fetch(srv.url + path, { headers, cache: 'no-cache' } as RequestInit);

test('lookup a keyword: its defining rule with subrules, not the bare header', async () => {
  const res = await get('/v1/lookup?q=trample&format=json');
  assert.equal(res.status, 200);
  const j = (await res.json()) as { kind: string; rules: Array<{ number: string }>; edition: string };
  assert.equal(j.kind, 'keyword');
  assert.deepEqual(
    j.rules.map((r) => r.number),
    ['702.19', '702.19a', '702.19b', '702.19c'],
  );
  const old = (await (await get('/v1/lookup?q=Trample&edition=2008-12-01')).json()) as typeof j;
  assert.equal(old.edition, '2008-10-01');
  assert.deepEqual(
    old.rules.map((r) => r.number),
    ['502.9', '502.9a', '502.9b'],
  );
});

test('lookup numbers, ranges, glossary terms and misspellings in text', async () => {
  const one = await (await get('/v1/lookup?q=CR%20702.19b&format=text')).text();
  assert.match(one, /^702\.19b The controller of an attacking creature with trample/);
  assert.doesNotMatch(one, /702\.19c/);
  const range = await (await get(`/v1/lookup?q=${encodeURIComponent('601.2a–h')}&format=text`)).text();
  const numbers = range
    .split('\n')
    .filter((l) => /^601\.2/.test(l))
    .map((l) => l.split(' ')[0]);
  assert.deepEqual(numbers, ['601.2a', '601.2b', '601.2c', '601.2d', '601.2e', '601.2f', '601.2g', '601.2h']);
  const skip = await (await get('/v1/lookup?q=704.5k-m&format=text')).text();
  assert.match(skip, /^704\.5k .*\n704\.5m /);
  const dies = await (await get('/v1/lookup?q=dies&format=markdown')).text();
  assert.match(dies, /\*\*Dies\*\*: A creature or planeswalker/);
  assert.match(dies, /\*\*700\.4\.\*\* The term dies/);
  const typo = (await (await get('/v1/lookup?q=devotoin')).json()) as { kind: string; matched: string; rules: Array<{ number: string }> };
  assert.equal(typo.kind, 'fuzzy');
  assert.equal(typo.matched, 'Devotion');
  assert.deepEqual(
    typo.rules.map((r) => r.number),
    ['700.5'],
  );
});

test('examples on request', async () => {
  const without = await (await get('/v1/rules/702.19b?format=text')).text();
  const withEx = await (await get('/v1/rules/702.19b?format=text&examples=1')).text();
  assert.doesNotMatch(without, /Example:/);
  assert.equal(withEx.match(/Example:/g)?.length, 2);
  const j = (await (await get('/v1/rules/702.19b?examples=1')).json()) as { rules: Array<{ examples: string[] }> };
  assert.equal(j.rules[0]!.examples.length, 2);
});

test('text and markdown answers fit 2,000 characters, cut at a line with a link to the rest', async () => {
  for (const format of ['text', 'markdown']) {
    const res = await get(`/v1/rules/707.10?format=${format}`);
    const body = await res.text();
    assert.ok(body.length <= 2000, `${format}: ${body.length}`);
    const lines = body.split('\n');
    assert.match(lines.at(-1)!, /https:\/\/crkb\.test\/v1\/lookup\?q=707\.10&edition=2021-07-23&format=(text|markdown)&full=1/);
    assert.match(lines.at(-2)!, /^(\*\*)?707\.10[a-z]/);
    const fullUrl = new URL(/https:\/\/\S+?full=1/.exec(lines.at(-1)!)![0]);
    const full = await (await get(fullUrl.pathname + fullUrl.search)).text();
    assert.ok(full.length > 2000);
    assert.match(full, /707\.10z/);
  }
});

test('unknown numbers: 404 with suggestions; malformed input: 400 naming the problem', async () => {
  const nf = await get('/v1/rules/702.91?edition=2021-07-23');
  assert.equal(nf.status, 404);
  const j = (await nf.json()) as { error: { code: string; suggestions: string[] } };
  assert.equal(j.error.code, 'NOT_FOUND');
  assert.ok(j.error.suggestions.includes('702.19'));
  const txt = await (await get('/v1/rules/702.91?format=text')).text();
  assert.match(txt, /Did you mean: .*702\.19/);
  for (const [path, re] of [
    ['/v1/lookup?q=trample&edition=someday', /edition \\"someday\\" is not a date/],
    ['/v1/lookup?q=trample&format=xml', /format must be/],
    ['/v1/lookup', /parameter is required/],
    ['/v1/rules/abc', /not a rule number/],
    ['/v1/lookup?q=a&q=b', /once/],
  ] as const) {
    const res = await get(path);
    assert.equal(res.status, 400, path);
    const body = await res.text();
    assert.match(body, re);
    assert.doesNotMatch(body, /at \w+ \(|node_modules/);
  }
});

test('FTS-hostile lookups never give a 500', async () => {
  for (const q of ['"', '*', 'NEAR(', '-trample', '((', 'trample"', 'AND OR NOT', '\\', '%', 'ünïcödé']) {
    const res = await get(`/v1/lookup?q=${encodeURIComponent(q)}&format=text`);
    assert.ok(res.status < 500, `${q}: ${res.status}`);
  }
});

test('ETag, 304 and Cache-Control: immutable when pinned, short for latest', async () => {
  const pinned = await get('/v1/rules/702.19b?edition=2021-07-23');
  const etag = pinned.headers.get('etag');
  assert.ok(etag);
  assert.match(pinned.headers.get('cache-control')!, /immutable/);
  const again = await get('/v1/rules/702.19b?edition=2021-07-23', { 'if-none-match': etag });
  assert.equal(again.status, 304);
  const latest = await get('/v1/rules/702.19b');
  assert.doesNotMatch(latest.headers.get('cache-control')!, /immutable/);
  assert.match(latest.headers.get('cache-control')!, /max-age=\d+/);
  const inForce = await get('/v1/rules/702.19b?edition=2021-07-01');
  assert.doesNotMatch(inForce.headers.get('cache-control')!, /immutable/);
});

test('GraphQL over GET is cacheable; POST works; CORS; body limit; no stack traces', async () => {
  const q = encodeURIComponent('{ rule(number: "702.19b", edition: "2021-06-18") { number text } }');
  const res = await get(`/graphql?query=${q}`, { accept: 'application/json' });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('cache-control')!, /immutable/);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  // a browser's script may read what a simple request's answer exposes, as a preflight's answer says
  const exposed = (h: Headers) => (h.get('access-control-expose-headers') ?? '').split(/,\s*/).sort();
  const preflight = await fetch(`${srv.url}/v1/rules/702.19b`, {
    method: 'OPTIONS',
    headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' },
  });
  assert.deepEqual(exposed(res.headers), ['ETag', 'X-Crkb-Db', 'X-Request-Id', 'X-Source-SHA256']);
  assert.deepEqual(exposed((await get('/v1/rules/702.19b')).headers), exposed(res.headers));
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
  const again = await get(`/graphql?query=${q}`, { accept: 'application/json', 'if-none-match': res.headers.get('etag')! });
  assert.equal(again.status, 304);
  const latest = await get(`/graphql?query=${encodeURIComponent('{ rule(number: "702.19b") { number } }')}`);
  assert.doesNotMatch(latest.headers.get('cache-control')!, /immutable/);
  const post = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ edition { effectiveDate } }' }),
  });
  assert.deepEqual(await post.json(), { data: { edition: { effectiveDate: '2021-07-23' } } });
  const big = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ edition { effectiveDate } } # ${'x'.repeat(100_000)}` }),
  });
  assert.equal(big.status, 413);
  const bad = await fetch(`${srv.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
  assert.equal(bad.status, 400);
  assert.doesNotMatch(await bad.text(), /at \w+ \(|node_modules|stack/);
  const html = await get('/graphql', { accept: 'text/html' });
  assert.equal(html.status, 200);
  // GraphiQL from the project's own bundle: every script and stylesheet is served here, none from elsewhere
  const page = await html.text();
  assert.match(page, /GraphiQL/);
  const urls = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith('data:'));
  assert.ok(urls.length >= 2);
  for (const u of urls) {
    assert.match(u, /^\/assets\//);
    assert.equal((await get(u)).status, 200, u);
  }
});

test('search endpoint: ranked hits of one edition, chat-sized text, hostile input and bad limits', async () => {
  const res = await get('/v1/search?q=trample&limit=5');
  assert.equal(res.status, 200);
  const j = (await res.json()) as { edition: string; hits: Array<{ kind: string; number: string | null; term: string | null; snippet: string }> };
  assert.equal(j.edition, '2021-07-23');
  assert.ok(j.hits.length > 0 && j.hits.length <= 5);
  assert.ok(
    j.hits.some((h) => h.number?.startsWith('702.19')),
    JSON.stringify(j.hits),
  );
  assert.ok(
    j.hits.every((h) => /<b>trample<\/b>/i.test(h.snippet)),
    'json snippets mark the match',
  );
  const old = (await (await get('/v1/search?q=trample&edition=2008-12-01')).json()) as typeof j;
  assert.equal(old.edition, '2008-10-01');
  assert.ok(old.hits.some((h) => h.number?.startsWith('502.9')));
  const text = await (await get('/v1/search?q=trample&format=text')).text();
  assert.ok(text.length <= 2000);
  assert.match(text, /\(CR 2021-07-23\)$/);
  for (const q of ['"', '*', 'NEAR(', '-trample', '((']) {
    const r = await get(`/v1/search?q=${encodeURIComponent(q)}`);
    assert.ok(r.status === 200, `${q}: ${r.status}`);
  }
  assert.equal((await get('/v1/search?q=trample&limit=0')).status, 400);
  assert.equal((await get('/v1/search')).status, 400);
});

test('/v1/search snippets: JSON is HTML (text escaped, matches in <b>), markdown escapes Markdown, text stays plain', async () => {
  const db = fixtureDb(':memory:', [
    doc(
      '2021-07-23',
      [
        ['100', 'General'],
        ['100.1', 'Collector numbers read <card number/total> & trample.'],
      ],
      [],
    ),
  ]);
  const s = await fixtureServer({ db });
  try {
    const j = (await (await fetch(`${s.url}/v1/search?q=trample&format=json`)).json()) as { hits: Array<{ snippet: string }> };
    assert.equal(j.hits[0]!.snippet, 'Collector numbers read &lt;card number/total&gt; &amp; <b>trample</b>.');
    const t = await (await fetch(`${s.url}/v1/search?q=trample&format=text`)).text();
    assert.match(t, /read <card number\/total> & trample\./);
    const md = await (await fetch(`${s.url}/v1/search?q=trample&format=markdown`)).text();
    assert.match(md, /^- \*\*100\.1\*\* Collector numbers read \\<card number\/total\\> & \*\*trample\*\*\.$/m);
  } finally {
    await s.close();
    db.close();
  }
});
