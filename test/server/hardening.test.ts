import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { GraphQLObjectType } from 'graphql';
import { readFileSync } from 'node:fs';
import { buildServer } from '../../src/server/buildServer.js';
import { createApiSchema } from '../../src/server/graphqlEndpoint.js';
import { FIELD_COST } from '../../src/server/limits.js';
import { listen } from '../../src/server/listen.js';
import { createResponseCache } from '../../src/http/ResponseCache.js';
import { corpusDb } from '../cli/corpusDb.js';
import { fixtureDb } from './fixtures.js';
import { GRAPHQL_RESPONSE, gql, sharedServer } from './helpers.js';

const dbFile = corpusDb();

test('the cost table lists every field of the schema, and nothing else', () => {
  const schema = createApiSchema();
  const fields: string[] = [];
  for (const t of Object.values(schema.getTypeMap())) {
    if (!(t instanceof GraphQLObjectType) || t.name.startsWith('__')) continue;
    for (const f of Object.keys(t.getFields())) fields.push(`${t.name}.${f}`);
  }
  assert.deepEqual(
    fields.filter((f) => !(f in FIELD_COST)),
    [],
    'fields missing from FIELD_COST',
  );
  assert.deepEqual(
    Object.keys(FIELD_COST).filter((f) => !fields.includes(f)),
    [],
    'FIELD_COST entries of no field',
  );
});

test('cost and alias limits hold through fragments, inline fragments and aliases', async () => {
  const db = fixtureDb();
  const s = await buildServer({ db });
  try {
    // 30 histories through a named fragment, 30 more through an inline one: 60 x 25 units
    const viaFragment = await gql(
      s,
      'query { rules(first: 30) { nodes { ...H ... on Rule { history { lineageId } } } } } fragment H on Rule { history { lineageId } }',
      {},
      GRAPHQL_RESPONSE,
    );
    assert.equal(viaFragment.status, 400);
    assert.equal(viaFragment.json.errors![0].extensions.code, 'TOO_COMPLEX');
    assert.match(viaFragment.json.errors![0].message, /cost \d+ exceeds/);
    const fine = await gql(s, 'query { rules(first: 5) { nodes { ...H } } } fragment H on Rule { number history { lineageId } }');
    assert.equal(fine.status, 200, fine.text);
    const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: edition { effectiveDate }`).join(' ');
    const many = await gql(s, `{ ${aliases} }`);
    assert.equal(many.json.errors![0].extensions.code, 'TOO_COMPLEX');
    assert.match(many.json.errors![0].message, /limit of 30 exceeded, found 31/);
    // the same field many times through aliases is as costly as asking for it many times
    const searches = Array.from({ length: 25 }, (_, i) => `s${i}: search(query: "trample") { nodes { kind } }`).join(' ');
    const costly = await gql(s, `{ ${searches} }`);
    assert.equal(costly.json.errors![0].extensions.code, 'TOO_COMPLEX');
    assert.match(costly.json.errors![0].message, /cost \d+ exceeds/);
    // a fragment spreading itself is a validation error, not a stack overflow
    const cyclic = await gql(s, 'query { rule(number: "100.1") { ...A } } fragment A on Rule { parent { ...A } }', {}, GRAPHQL_RESPONSE);
    assert.equal(cyclic.status, 400);
    assert.equal(cyclic.json.errors![0].extensions.code, 'GRAPHQL_VALIDATION_FAILED');
  } finally {
    s.kb().close();
  }
});

test('the per-request time limit stops costly work with TIMEOUT; such an answer is never cached', async () => {
  const db = fixtureDb();
  const s = await buildServer({ db, timeLimitMs: -1 });
  const l = await listen(s.app, 0);
  try {
    const r = await gql(s, '{ history(number: "100.1") { lineageId } rule(number: "100.1") { number } }');
    assert.equal(r.json.errors![0].extensions.code, 'TIMEOUT');
    assert.equal(r.json.data.history, null);
    assert.equal(r.json.data.rule.number, '100.1', 'work that checks no clock still answers');
    const get = await fetch(`${l.url}/graphql?query=${encodeURIComponent('{ history(number: "100.1", edition: "2021-07-23") { lineageId } }')}`);
    assert.equal((await get.json()).errors[0].extensions.code, 'TIMEOUT');
    assert.equal(get.headers.get('cache-control'), 'no-store');
  } finally {
    await l.close();
    s.kb().close();
  }
});

test('the response cache is bounded in bytes: old answers are evicted, oversized ones never kept', () => {
  const cache = createResponseCache(64 * 1024);
  const entry = (body: string) => ({ status: 200, contentType: 'text/plain', body, etag: 'W/"x"', cacheControl: 'public' });
  for (let i = 0; i < 200; i++) cache.set(`/v1/lookup?q=${i}`, entry('x'.repeat(1000)));
  assert.ok(cache.calculatedSize <= 64 * 1024, `${cache.calculatedSize} bytes`);
  assert.equal(cache.get('/v1/lookup?q=0'), undefined, 'the oldest answer was evicted');
  assert.ok(cache.get('/v1/lookup?q=199'));
  cache.set('/big', entry('y'.repeat(20 * 1024)));
  assert.equal(cache.get('/big'), undefined, 'an answer over a quarter of the budget is not kept');
});

const shared = sharedServer(dbFile, { publicUrl: 'https://crkb.test' });

test('answers never depend on Host or X-Forwarded-Proto; GET /graphql varies on Accept', async () => {
  const path = '/v1/lookup?q=trample&format=markdown';
  const plain = await (await fetch(shared.l.url + path)).text();
  const evil = await fetch(shared.l.url + path + '&x=1', { headers: { host: 'x>) **[Click](https://evil.example)** (<y', 'x-forwarded-proto': 'javascript' } });
  const body = await evil.text();
  assert.doesNotMatch(body, /evil\.example|javascript/);
  assert.equal(body, plain);
  assert.match(plain, /https:\/\/crkb\.test\/v1\/lookup/);
  const g = await fetch(`${shared.l.url}/graphql?query=${encodeURIComponent('{ edition { effectiveDate } }')}`);
  assert.match(g.headers.get('vary') ?? '', /Accept\b/);
});

test('malformed input is a 4xx or a GraphQL BAD_USER_INPUT error, never a 500: bad percent-encoding, bad variables, forged cursors, markdown links', async () => {
  for (const [path, status, code] of [
    ['/v1/rules/%', 400, undefined],
    ['/v1/rules/%E0%A4%A', 400, undefined],
    ['/graphql?query=%7Beditions%7Blabel%7D%7D&variables=%7B', 400, 'BAD_USER_INPUT'],
    ['/graphql?query=%7Beditions%7Blabel%7D%7D&extensions=%5B', 400, 'BAD_USER_INPUT'],
    // a field's bad argument is an error beside the answer's data (null here: the field is non-null)
    [`/graphql?query=${encodeURIComponent('{ search(query: "x", after: "czotOTk5OTk5OTk5OTk5") { nodes { kind } } }')}`, 200, 'BAD_USER_INPUT'],
    [`/graphql?query=${encodeURIComponent('{ diff(from: "2021-06-18", to: "2021-07-23", after: "ZDotNQ") { nodes { textChange } } }')}`, 200, 'BAD_USER_INPUT'],
    [`/v1/lookup?q=${'e'.repeat(5000)}`, 400, undefined],
  ] as const) {
    const r = await fetch(shared.l.url + path, { headers: { accept: 'application/json' } });
    assert.equal(r.status, status, path.slice(0, 80));
    const body = await r.text();
    assert.doesNotMatch(body, /at \w+ \(|node_modules|stack/);
    if (code) assert.equal(JSON.parse(body).errors[0].extensions.code, code, path.slice(0, 80));
  }
  const md = await (await fetch(`${shared.l.url}/v1/lookup?format=markdown&q=${encodeURIComponent('[x](https://x.example/)')}`)).text();
  assert.match(md, /`\[x\]\(https:\/\/x\.example\/\)`/, 'the query is shown in a code span (rendered literally)');
  assert.doesNotMatch(md.replace(/`[^`]*`/g, ''), /x\.example/, 'and nowhere else: no live link');
});

/** A small deterministic random source (fixed seed: every run sends the same requests). */
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

test('fuzz: 2,000 generated REST and GraphQL requests, no 500, no request over 2 s, the server still answers', async () => {
  const r = rng(20261122);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const junk = (): string => {
    const parts = [
      '702.19b',
      '601.2a-h',
      'trample',
      'dies',
      '"',
      "'",
      '\\',
      '%',
      '%ZZ',
      '*',
      'NEAR(',
      ')',
      '-',
      'ö',
      '💥',
      '\u0000',
      ' ',
      '</mark>',
      'AND',
      'OR',
      '1e9',
      '-1',
      'latest',
      'AFR',
      '2009-07-11',
      '9999-99-99',
      'x'.repeat(600),
    ];
    return Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(parts)).join(pick(['', ' ', '.']));
  };
  const editions = ['latest', '2021-06-18', '2009-07-11', '1990-01-01', 'AFR', 'banana', 'unofficial:zzz', '', 'x'.repeat(100), '2021-02-30'];
  const fields = [
    'rule(number: $s, edition: $e) { number text parent { number } children { number } references { targetNumber dangling } referencedBy { number } }',
    'rules(edition: $e, section: $s, first: $n, after: $s) { nodes { number } pageInfo { endCursor } }',
    'search(query: $s, edition: $e, first: $n, after: $s, prefix: true) { nodes { kind snippet rule { number } } }',
    'glossary(term: $s, edition: $e) { term definition }',
    'diff(from: $e, to: $e, section: $s, first: $n, after: $s) { counts { added } nodes { textChange segments { op } } }',
    'history(number: $s, edition: $e) { steps { number textChange } }',
    'lookup(q: $s, edition: $e) { kind rules { number } suggestions }',
    'keywords(edition: $e) { name }',
    'edition(date: $e) { ruleCount parts { title } }',
  ];
  let worst = 0;
  let n = 0;
  for (let i = 0; i < 2000; i++) {
    const kind = r();
    let res: Response;
    const t0 = performance.now();
    if (kind < 0.4) {
      const path = pick([
        () =>
          `/v1/lookup?q=${encodeURIComponent(junk())}&edition=${encodeURIComponent(pick(editions))}&format=${pick(['json', 'text', 'markdown', 'md', 'xml'])}`,
        () => `/v1/rules/${encodeURIComponent(junk())}?edition=${encodeURIComponent(pick(editions))}`,
        () => `/v1/search?q=${encodeURIComponent(junk())}&limit=${pick(['1', '50', '0', '-3', 'abc', '999'])}&edition=${encodeURIComponent(pick(editions))}`,
        () => `/v1/${junk().replace(/[^a-z%]/g, '')}`,
        () => `/v1/rules/${pick(['%', '%%', '%C0%AF', '..%2F..', '702.19b%00'])}`,
      ])();
      res = await fetch(shared.l.url + path);
    } else {
      const sel = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, k) => `f${k}: ${pick(fields)}`).join(' ');
      const query = r() < 0.1 ? junk() : `query($s: String, $e: String, $n: Int) { ${sel} }`;
      const variables = {
        s: r() < 0.3 ? pick(['czotMQ', 'bzotNQ', 'ZDo5OTk5OTk5OTk', '']) : junk(),
        e: pick(editions),
        n: pick([0, 1, 20, 500, -1, 2 ** 31 - 1]),
      };
      res =
        r() < 0.7
          ? await fetch(`${shared.l.url}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: r() < 0.05 ? junk() : JSON.stringify({ query, variables }),
            })
          : await fetch(
              `${shared.l.url}/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(r() < 0.1 ? junk() : JSON.stringify(variables))}`,
            );
    }
    const body = await res.text();
    const ms = performance.now() - t0;
    worst = Math.max(worst, ms);
    assert.ok(res.status < 500 || res.status === 503, `request ${i}: ${res.status} ${body.slice(0, 200)}`);
    assert.doesNotMatch(body, /at \w+ \(.*:\d+:\d+\)|node_modules/, `request ${i} leaked a stack trace`);
    assert.ok(ms < 2000, `request ${i} took ${ms.toFixed(0)} ms`);
    n++;
  }
  assert.equal(n, 2000);
  const alive = await fetch(`${shared.l.url}/v1/rules/702.19b?format=text`);
  assert.equal(alive.status, 200);
});

test('memory attack regression: unique oversized edition arguments and ordinary diff/search traffic leave a 96 MB-heap server alive', async () => {
  const child: ChildProcess = spawn(process.execPath, ['--max-old-space-size=96', '--max-semi-space-size=4', 'dist/src/server/listen.js', dbFile(), '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((res, rej) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
        if (m) res(m[0]);
      });
      child.once('exit', (code) => rej(new Error(`server exited ${code}`)));
    });
    const rssNow = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
    // the server and its heavy worker thread (a second copy of the knowledge base) before any request
    const idle = rssNow();
    const r = rng(7);
    const letters = (k: number): string => Array.from({ length: k }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join('');
    let refused = 0;
    for (let i = 0; i < 600; i++) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ rule(number:"702.19b", edition:"${letters(60_000)}<i>") { number } }` }),
      });
      const body = (await res.json()) as { errors?: Array<{ extensions: { code: string } }> };
      if (body.errors?.[0]?.extensions.code === 'BAD_USER_INPUT') refused++;
    }
    assert.equal(refused, 600, 'an edition argument longer than any label is BAD_USER_INPUT');
    for (let i = 0; i < 1500; i++) {
      const res = await fetch(`${url}/v1/lookup?q=${letters(40)}&edition=${letters(7000)}&format=markdown`);
      await res.arrayBuffer();
    }
    // ordinary traffic: diffs between every pair, then a search in each edition
    const eds = ['2009-05-01', '2009-07-11', '2021-06-18', '2021-07-23'];
    for (const a of eds) {
      for (const b of eds) {
        const res = await fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: `{ diff(from: "${a}", to: "${b}", first: 500) { nodes { before { text } after { text } segments { text } } } }` }),
        });
        await res.arrayBuffer();
      }
      await (await fetch(`${url}/v1/search?q=damage&edition=${a}`)).arrayBuffer();
    }
    const alive = await fetch(`${url}/v1/rules/702.19b?format=text`);
    assert.equal(alive.status, 200);
    const rss = rssNow();
    assert.ok(rss - idle < 90, `server RSS ${idle.toFixed(0)} MB idle, ${rss.toFixed(0)} MB after`);
  } finally {
    child.kill('SIGTERM');
  }
});
