import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const runBundle = pathToFileURL(resolve('dist/src/core/runBundle.js')).href;

// a fresh process running `bundle` through runBundle: its output, whether the cache was used, its exit status
function run(bundle: string, cache: string): { out: string; fromCache: string; status: number | null } {
  const script = `import { runBundle } from ${JSON.stringify(runBundle)};\nconst used = runBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cache)}).fromCache;\nconsole.error(used ? 'cached' : 'compiled');`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return { out: r.stdout, fromCache: r.stderr.trim(), status: r.status };
}

test('runBundle: runs a CommonJS file, keeps its code cache, and never uses a cache made from another file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-runbundle-'));
  try {
    const bundle = join(dir, 'x.cjs');
    const cache = join(dir, 'x.v8cache');
    writeFileSync(bundle, `const { basename } = require('node:path');\nfunction f(n) { return n * 2; }\nconsole.log(basename(__filename), f(21));\n`);
    assert.deepEqual(run(bundle, cache), { out: 'x.cjs 42\n', fromCache: 'compiled', status: 0 });
    assert.ok(existsSync(cache), 'a successful run writes the cache');
    assert.match(readFileSync(cache, 'latin1'), /^crkb-v8-cache \d+ /);
    assert.deepEqual(run(bundle, cache), { out: 'x.cjs 42\n', fromCache: 'cached', status: 0 });
    // rebuilt with a source of the same length: V8 alone would take the old cache
    writeFileSync(bundle, `const { basename } = require('node:path');\nfunction f(n) { return n * 3; }\nconsole.log(basename(__filename), f(21));\n`);
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    assert.deepEqual(run(bundle, cache), { out: 'x.cjs 63\n', fromCache: 'compiled', status: 0 });
    assert.deepEqual(run(bundle, cache), { out: 'x.cjs 63\n', fromCache: 'cached', status: 0 });
    // a failed run writes none; a broken cache file is not used
    rmSync(cache);
    writeFileSync(bundle, `process.exitCode = 1;\n`);
    assert.equal(run(bundle, cache).status, 1);
    assert.ok(!existsSync(cache), 'a failed run writes no cache');
    writeFileSync(cache, 'crkb-v8-cache garbage');
    assert.equal(run(bundle, cache).fromCache, 'compiled');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
