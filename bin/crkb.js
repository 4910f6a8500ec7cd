#!/usr/bin/env node
// `crkb serve` and `crkb start` run a supervisor in this process and the server processes as its
// cluster workers, with their own V8 flags (src/cli/serve.ts). A SIGHUP that arrives before the
// supervisor is listening for it (or while `crkb start` builds the database) asks for nothing the
// start-up does not do anyway: it must not end the process.
if (process.argv[2] === 'serve' || process.argv[2] === 'start') process.on('SIGHUP', () => undefined);
await import('../dist/src/cli/main.js');
