// Bundles each of crkb's commands that answer from a stored database (rule, history, diff, search,
// refs, editions, export, cite) and `serve` with main into one CommonJS file, dist/cli/COMMAND.cjs,
// its packages inlined (better-sqlite3, a native addon, and piscina, which starts its threads from its
// own files, excepted), and a server's heavy worker thread into dist/cli/heavyWorker.cjs. A fresh
// process (or thread) pays for every module it resolves, reads, parses and links: forty ES modules (or
// chunks and a package's files) cost tens of milliseconds, one file a few; and a CommonJS file can be
// compiled from V8's code cache, which bin/crkb.js (and src/server/heavyThread.ts) keeps beside it
// (src/core/runBundle.ts; node 20 caches no ES module). bin/crkb.js runs a command's file when it is
// not older than the compiled dist/src/cli/main.js. In a command's file the other commands are left as
// imports of dist/src/cli/ never taken; the other commands (start, ingest…: worker threads and files
// found by their module's URL) run unbundled from dist/src/cli/.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build } from 'esbuild';

const commands = ['rule', 'history', 'diff', 'search', 'refs', 'editions', 'export', 'cite', 'serve'];
const started = Date.now();
rmSync('dist/cli', { recursive: true, force: true });
const options = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // piscina starts its threads from its own files, found by its __dirname
  external: ['better-sqlite3', 'piscina'],
  // the bundled modules that find files by their own URL (projectFiles, openDb) find them from dist/cli/
  define: { 'import.meta.url': '__crkbBundleUrl' },
  banner: { js: 'var __crkbBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  // no comments or indentation: a process (and each thread) keeps its bundle's source in memory; names are
  // kept (stack traces read as before)
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
};

/**
 * Builds a bundle and writes it in ASCII: V8 keeps a source with one character outside Latin-1 at two bytes a
 * character, and esbuild leaves regular expressions' and String.raw templates' characters as they are. A \uXXXX
 * escape means the same character in a string, a template, a regular expression (literal, or built from a
 * String.raw template: every one of crkb's is) and a name.
 */
async function bundle(opts) {
  const r = await build(opts);
  for (const f of r.outputFiles) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(
      f.path,
      f.text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
  }
}

await Promise.all([
  // a server's heavy worker thread (src/server/heavyThread.ts runs it)
  bundle({ ...options, entryPoints: ['dist/src/server/heavyWorker.js'], outfile: 'dist/cli/heavyWorker.cjs' }),
  ...commands.map((command) =>
    bundle({
      ...options,
      entryPoints: ['dist/src/cli/main.js'],
      outfile: `dist/cli/${command}.cjs`,
      plugins: [
        {
          name: 'one-command',
          setup(b) {
            // main's import of another command: left to dist/src/cli/, and never taken in this file
            b.onResolve({ filter: /^\.\/\w+\.js$/ }, (args) =>
              args.kind === 'dynamic-import' && args.resolveDir.endsWith('/dist/src/cli') && args.path !== `./${command}.js`
                ? { path: `../src/cli/${args.path.slice(2)}`, external: true }
                : undefined,
            );
          },
        },
      ],
    }),
  ),
]);
console.log(`buildCli: dist/cli built in ${Date.now() - started} ms`);
