#!/usr/bin/env node
import { statSync } from 'node:fs';

// `crkb serve` and `crkb start` run a supervisor in this process and the server processes as its
// cluster workers, with their own V8 flags (src/cli/serve.ts). A SIGHUP that arrives before the
// supervisor is listening for it (or while `crkb start` builds the database) asks for nothing the
// start-up does not do anyway: it must not end the process.
if (process.argv[2] === 'serve' || process.argv[2] === 'start') process.on('SIGHUP', () => undefined);

// The bundled commands (scripts/buildCli.mjs) when the bundle is as new as the compiled code: a stale
// or missing one (a build that only ran tsc) is not run.
const mtime = (file) => statSync(new URL(file, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;
const bundled = mtime('../dist/cli/main.js') >= mtime('../dist/src/cli/main.js');
await import(bundled ? '../dist/cli/main.js' : '../dist/src/cli/main.js');
