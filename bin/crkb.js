#!/usr/bin/env node
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `crkb serve` and `crkb start` run a supervisor in this process and the server processes as its
// cluster workers, with their own V8 flags (src/cli/serve.ts). A SIGHUP that arrives before the
// supervisor is listening for it (or while `crkb start` builds the database) asks for nothing the
// start-up does not do anyway: it must not end the process.
if (process.argv[2] === 'serve' || process.argv[2] === 'start') process.on('SIGHUP', () => undefined);

// A query command, and `crkb serve`, runs from its bundle (scripts/buildCli.mjs) with V8's code cache of
// it kept beside it (src/core/runBundle.ts) when the bundle is as new as the compiled code: a stale or
// missing one (a build that only ran tsc) is not run, nor is one for another command. A server process
// (a cluster worker of `crkb serve`) keeps its own cache: it compiles what the supervisor never runs.
const file = (name) => fileURLToPath(new URL(name, import.meta.url));
const mtime = (name) => statSync(file(name), { throwIfNoEntry: false })?.mtimeMs ?? -1;
const command = /^[a-z]+$/.test(process.argv[2] ?? '') ? process.argv[2] : null;
if (command !== null && mtime(`../dist/cli/${command}.cjs`) >= mtime('../dist/src/cli/main.js')) {
  const { runBundle } = await import('../dist/src/core/runBundle.js');
  // (node:cluster, and the modules it loads, only where a process can be a cluster worker)
  const worker = (command === 'serve' || command === 'start') && (await import('node:cluster')).default.isWorker;
  const cache = worker ? `${command}-server` : command;
  runBundle(file(`../dist/cli/${command}.cjs`), file(`../dist/cli/${cache}.v8cache`));
} else await import('../dist/src/cli/main.js');
