import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The README's main command, as a new user runs it: no database yet, so `crkb start` builds it
// from the whole corpus (under the server's small V8 heap this once ran out of memory), then serves it.
test('crkb start builds the database from the corpus when it is missing, then serves it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-start-'));
  const db = join(dir, 'crkb.db');
  const child = spawn(process.execPath, ['bin/crkb.js', 'start', '--db', db, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /GraphQL\s+(http:\/\/\S+)\/graphql/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`crkb start exited with ${code}:\n${out}\n${err}`)));
    });
    assert.match(out, /building .*crkb\.db from/);
    // the CR's 100-odd editions and the tournament documents' (../shared/policy) in one database
    const stored = /^(\d+) editions stored, .* 0 unaccounted lines/m.exec(out);
    assert.ok(stored && Number(stored[1]) >= 200, out);
    assert.ok(existsSync(db));
    const r = await fetch(`${url}/v1/rules/702.19b?format=json`);
    assert.equal(r.status, 200);
    const body = (await r.json()) as { rules?: Array<{ number: string }> };
    assert.equal(body.rules?.[0]?.number, '702.19b');
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
});
