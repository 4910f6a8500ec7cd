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

/** A bundle run by runBundle: whether V8's code cache was used, what the bundle exported, and a way to write its cache now. */
export interface RanBundle {
  fromCache: boolean;
  exports: unknown;
  /** Writes the code cache (with the functions compiled so far) unless it was used; a cache that cannot be written is left alone. */
  saveCache(): void;
}

/**
 * Runs a CommonJS bundle (scripts/buildCli.mjs) as node's loader would, with V8's code cache of it in
 * `cacheFile`: read when it was made from this very bundle, else written when the process exits with
 * status 0 (with the functions the run compiled), or when the caller calls saveCache (`saveOnExit:
 * false`: a worker thread, which is terminated rather than exiting). Node 20 has no compile cache of
 * its own for a fresh process (22's module.enableCompileCache), and parsing and compiling a bundle is
 * a third of a query command's cost. A cache that cannot be written (a read-only install) is left alone.
 */
export function runBundle(file: string, cacheFile: string, opts: { saveOnExit?: boolean } = {}): RanBundle {
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
  let saved = fromCache;
  const saveCache = (): void => {
    if (saved) return;
    saved = true;
    const tmp = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
    try {
      writeFileSync(tmp, Buffer.concat([Buffer.from(stamp, 'latin1'), script.createCachedData()]));
      renameSync(tmp, cacheFile);
    } catch {
      // read-only: every run compiles
      rmSync(tmp, { force: true });
    }
  };
  if (!fromCache && opts.saveOnExit !== false)
    process.once('exit', (code) => {
      // a failed run (a usage mistake) compiled little worth keeping
      if (code === 0) saveCache();
    });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  return { fromCache, exports: module.exports, saveCache };
}
