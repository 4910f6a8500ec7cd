import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureDb } from './fixtures.js';

// The real server process (dist/src/server/listen.js) on a loopback port, queried over HTTP.
let child: ChildProcess;
let url: string;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crkb-e2e-'));
  const file = join(dir, 'crkb.db');
  fixtureDb(file).close();
  child = spawn(process.execPath, ['dist/src/server/listen.js', file, '0', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
});
after(() => {
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

test('the real server answers GraphQL and bot lookups over HTTP', async () => {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip' },
    body: JSON.stringify({ query: '{ rule(number: "700.2g", edition: "2021-06-18") { references { target { number } } } }' }),
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { data: { rule: { references: [{ target: { number: '706.10' } }] } } });
  const text = await (await fetch(`${url}/v1/lookup?q=trample&format=text`)).text();
  assert.match(text, /^Trample: /);
  assert.match(text, /\n702\.19a Trample is a static ability/);
});
