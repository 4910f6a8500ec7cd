import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

// What a cache file starts with: the bundle it was made from (size and modification time), so that a
// rebuilt bundle never runs with another's code (V8 itself compares only the source's length).
const stampOf = (file: string): string => {
  const st = statSync(file);
  return `crkb-v8-cache ${st.size} ${st.mtimeMs} ${process.version}\n`;
};

/**
 * Runs a CommonJS bundle (scripts/buildCli.mjs) as node's loader would, with V8's code cache of it in
 * `cacheFile`: read when it was made from this very bundle, else written when the process exits (with
 * the functions the run compiled). Node 20 has no compile cache of its own for a fresh process (22's
 * module.enableCompileCache), and parsing and compiling the bundle is a third of a query command's
 * cost. A cache that cannot be written (a read-only install) is left alone. Returns whether the code
 * cache was used.
 */
export function runBundle(file: string, cacheFile: string): boolean {
  const stamp = stampOf(file);
  let cachedData: Buffer | undefined;
  try {
    const c = readFileSync(cacheFile);
    const head = Buffer.byteLength(stamp);
    if (c.length > head && c.toString('latin1', 0, head) === stamp) cachedData = c.subarray(head);
  } catch {
    // no cache yet
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const fromCache = cachedData !== undefined && script.cachedDataRejected !== true;
  if (!fromCache)
    process.once('exit', (code) => {
      // a failed run (a usage mistake) compiled little worth keeping
      if (code !== 0) return;
      const tmp = `${cacheFile}.${process.pid}`;
      try {
        writeFileSync(tmp, Buffer.concat([Buffer.from(stamp, 'latin1'), script.createCachedData()]));
        renameSync(tmp, cacheFile);
      } catch {
        // read-only: every run compiles
        rmSync(tmp, { force: true });
      }
    });
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  return fromCache;
}
