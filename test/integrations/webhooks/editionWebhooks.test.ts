import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { editionWebhooks, parseWebhooks, type Webhook } from '../../../src/integrations/webhooks/editionWebhooks.js';
import { tempDir } from '../../support/tempDir.js';

const SECRET = 'test-secret';
interface Got {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
const got: Got[] = [];
/** Status codes the receiver answers in turn, per path (200 when none are left). */
const script = new Map<string, number[]>();
let server: Server;
let base = '';

// a local receiver standing in for Discord and for a generic JSON webhook
before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      got.push({ path: req.url!, headers: req.headers, body });
      const status = script.get(req.url!)?.shift() ?? 200;
      res.writeHead(status, status === 429 ? { 'retry-after': '0.01' } : {}).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const to = (path: string): Got[] => got.filter((g) => g.path === path);

function verified(g: Got): boolean {
  const ts = String(g.headers['x-crkb-timestamp']);
  const want = `sha256=${createHmac('sha256', SECRET).update(`${ts}.${g.body}`).digest('hex')}`;
  return g.headers['x-crkb-signature'] === want;
}

test('parseWebhooks: Discord by host or prefix, JSON otherwise; a JSON webhook needs a secret; bad entries are named', () => {
  assert.deepEqual(parseWebhooks('https://discord.com/api/webhooks/1/abc, json=https://hooks.example/x discord=http://127.0.0.1:9/d', SECRET), [
    { kind: 'discord', url: 'https://discord.com/api/webhooks/1/abc' },
    { kind: 'json', url: 'https://hooks.example/x' },
    { kind: 'discord', url: 'http://127.0.0.1:9/d' },
  ]);
  assert.throws(() => parseWebhooks('https://hooks.example/x', null), /JSON webhook \(hooks\.example\) is signed: set CRKB_WEBHOOK_SECRET/);
  assert.throws(() => parseWebhooks('not a url', SECRET), /"not" is not a URL/);
  assert.throws(() => parseWebhooks('ftp://x.example/a', SECRET), /ftp: is not http\(s\)/);
  // a Discord webhook's URL is its credential: no secret needed
  assert.equal(parseWebhooks('https://discord.com/api/webhooks/1/abc', null).length, 1);
});

test('a new edition is told once to each webhook, signed; the first edition seen is only recorded; a restart does not tell it again', async () => {
  const dir = tempDir('crkb-hooks-');
  const stateFile = join(dir, 'crkb.db.webhooks.json');
  const hooks: Webhook[] = [
    { kind: 'discord', url: `${base}/discord/a` },
    { kind: 'json', url: `${base}/json/a` },
  ];
  const lines: string[] = [];
  const w = editionWebhooks({ hooks, secret: SECRET, stateFile, log: (l) => lines.push(l), retryMs: 10 });
  await w.seen({ edition: '2024-11-08', previous: null, sha256: 'a'.repeat(64), source: 'serve' }, { news: false });
  assert.equal(to('/discord/a').length + to('/json/a').length, 0, 'the edition a replica starts on is no news');
  assert.ok(existsSync(stateFile));

  await w.seen({ edition: '2025-02-07', previous: '2024-11-08', sha256: 'b'.repeat(64), source: 'serve' }, { news: true });
  const [d] = to('/discord/a');
  const [j] = to('/json/a');
  assert.ok(d && j && to('/discord/a').length === 1 && to('/json/a').length === 1);
  assert.deepEqual(JSON.parse(d.body), { content: 'New Comprehensive Rules edition: CR 2025-02-07 (was 2024-11-08).', allowed_mentions: { parse: [] } });
  const event = JSON.parse(j.body) as Record<string, unknown>;
  assert.deepEqual(
    { ...event, sentAt: typeof event.sentAt },
    {
      event: 'crkb.edition',
      edition: '2025-02-07',
      previous: '2024-11-08',
      sha256: 'b'.repeat(64),
      source: 'serve',
      sentAt: 'string',
    },
  );
  assert.ok(verified(d) && verified(j), 'both carry a valid X-Crkb-Signature');
  assert.equal(j.headers['x-crkb-delivery'], 'edition-2025-02-07');
  assert.equal(j.headers['content-type'], 'application/json');

  // the same edition again, an older one, and a new process on the same state: nothing more is sent
  await w.seen({ edition: '2025-02-07', previous: null, sha256: null, source: 'serve' }, { news: true });
  await w.seen({ edition: '2024-11-08', previous: null, sha256: null, source: 'serve' }, { news: true });
  const restarted = editionWebhooks({ hooks, secret: SECRET, stateFile, log: () => undefined, retryMs: 10 });
  await restarted.seen({ edition: '2025-02-07', previous: null, sha256: null, source: 'update' }, { news: true });
  assert.equal(to('/discord/a').length + to('/json/a').length, 2);
  const state = JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, { edition: string; outcome: string }>;
  assert.deepEqual(
    Object.values(state).map((s) => [s.edition, s.outcome]),
    [
      ['2025-02-07', 'delivered'],
      ['2025-02-07', 'delivered'],
    ],
  );
  assert.ok(!readFileSync(stateFile, 'utf8').includes(base), 'the state file holds no webhook URL (a Discord URL is a credential)');
  assert.equal(lines.filter((l) => /told of CR 2025-02-07/.test(l)).length, 2);
});

test('a 5xx, a 429 or a dropped connection is retried with back-off until delivered; a 4xx is not retried, and the edition is not told again', async () => {
  const dir = tempDir('crkb-hooks-');
  const stateFile = join(dir, 'state.json');
  script.set('/json/retry', [503, 429, 502]);
  script.set('/json/refused', [410]);
  const lines: string[] = [];
  const hooks: Webhook[] = [
    { kind: 'json', url: `${base}/json/retry` },
    { kind: 'json', url: `${base}/json/refused` },
    // nothing listens on port 9 of loopback (discard): a connection error every time
    { kind: 'json', url: 'http://127.0.0.1:9/none' },
  ];
  const w = editionWebhooks({ hooks, secret: SECRET, stateFile, log: (l) => lines.push(l), retryMs: 5, attempts: 4 });
  await w.seen({ edition: '2026-01-16', previous: '2025-11-14', sha256: null, source: 'update' }, { news: true });
  assert.equal(to('/json/retry').length, 4, '3 failures, then delivered');
  assert.equal(new Set(to('/json/retry').map((g) => g.body)).size, 1, 'the same event each time');
  assert.ok(to('/json/retry').every(verified));
  assert.equal(to('/json/refused').length, 1);
  assert.match(lines.join('\n'), /127\.0\.0\.1:\d+: told of CR 2026-01-16/);
  assert.match(lines.join('\n'), /not delivered: HTTP 410/);
  assert.match(lines.join('\n'), /127\.0\.0\.1:9: CR 2026-01-16 not delivered: .*\(4 attempts\)/);
  const outcomes = Object.values(JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, { outcome: string }>).map((s) => s.outcome);
  assert.deepEqual(outcomes.sort(), ['delivered', 'failed', 'failed']);
  // at most once: a failed delivery is not tried again for the same edition
  await w.seen({ edition: '2026-01-16', previous: null, sha256: null, source: 'update' }, { news: true });
  assert.equal(to('/json/refused').length, 1);
  assert.equal(to('/json/retry').length, 4);
});
