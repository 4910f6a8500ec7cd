import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { corpusDb } from '../cli/corpusDb.js';
import { sharedServer } from './helpers.js';

// The slow part of the hardening tests (npm run test:slow): a fuzz of 2,000 requests and a memory attack on a 96 MB-heap server.
const dbFile = corpusDb();
const shared = sharedServer(dbFile, { publicUrl: 'https://crkb.test' });

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
    // a stall, not a speed check: every answer takes milliseconds, the stalls found took 20 s and more
    assert.ok(ms < 15_000, `request ${i} took ${ms.toFixed(0)} ms`);
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
