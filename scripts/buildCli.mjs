// Bundles crkb's commands that answer from a stored database (rule, history, diff, search, refs,
// editions, export, cite) with esbuild into dist/cli/, one file a command and chunks they share:
// about forty ES modules cost a fresh process tens of milliseconds to resolve and load, a command's
// one file a few. bin/crkb.js runs dist/cli/main.js when it is not older than the compiled
// dist/src/cli/main.js. The other commands (serve, start, ingest…: worker threads and files found
// by their module's URL) stay unbundled, loaded from dist/src/cli/ as before, and so does the
// UsageError class they share with main.
import { build } from 'esbuild';

const unbundled = /^\.\/(serve|start|ingest|update|publish|manifest|mcp|discord|identify|UsageError)\.js$/;
const started = Date.now();
await build({
  entryPoints: ['dist/src/cli/main.js'],
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  plugins: [
    {
      name: 'unbundled-commands',
      setup(b) {
        b.onResolve({ filter: unbundled }, (args) =>
          args.resolveDir.endsWith('/dist/src/cli') ? { path: `../src/cli/${args.path.slice(2)}`, external: true } : undefined,
        );
      },
    },
  ],
});
console.log(`buildCli: dist/cli built in ${Date.now() - started} ms`);
