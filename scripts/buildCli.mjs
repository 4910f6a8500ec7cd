// Bundles each of crkb's commands that answer from a stored database (rule, history, diff, search,
// refs, editions, export, cite) with main into one CommonJS file, dist/cli/COMMAND.cjs, its packages
// inlined (better-sqlite3, a native addon, excepted). A fresh process pays for every module it
// resolves, reads, parses and links: forty ES modules (or chunks and a package's files) cost tens of
// milliseconds, one file a few; and a CommonJS file can be compiled from V8's code cache, which
// bin/crkb.js keeps beside it (src/cli/runBundle.ts; node 20 caches no ES module). bin/crkb.js runs a
// command's file when it is not older than the compiled dist/src/cli/main.js. In a command's file the
// other commands are left as imports of dist/src/cli/ never taken; the other commands (serve, start,
// ingest…: worker threads and files found by their module's URL) run unbundled from dist/src/cli/.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const commands = ['rule', 'history', 'diff', 'search', 'refs', 'editions', 'export', 'cite'];
const started = Date.now();
rmSync('dist/cli', { recursive: true, force: true });
await Promise.all(
  commands.map((command) =>
    build({
      entryPoints: ['dist/src/cli/main.js'],
      outfile: `dist/cli/${command}.cjs`,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      external: ['better-sqlite3'],
      // the bundled modules that find files by their own URL (projectFiles, openDb) find them from dist/cli/
      define: { 'import.meta.url': '__crkbBundleUrl' },
      banner: { js: 'var __crkbBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
      logLevel: 'warning',
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
);
console.log(`buildCli: dist/cli built in ${Date.now() - started} ms`);
