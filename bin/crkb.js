#!/usr/bin/env node
import { spawn } from 'node:child_process';

// The server keeps V8's heap small: under load the defaults let resident memory grow by
// tens of megabytes of garbage awaiting collection (the live heap is about 40 MB; 96 MB of
// old space leaves room for large answers). V8 reads these flags only at start-up, so the
// long-running commands re-run themselves with them, in a child this process supervises: a
// server that crashes (killed by a signal it was not sent, out of memory, an uncaught error:
// exit 70) is started again, at most 5 times a minute; any other exit is passed on.
const SERVER_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=96'];
const command = process.argv[2];
if ((command === 'serve' || command === 'start') && !process.execArgv.some((a) => a.startsWith('--max-semi-space-size'))) {
  // production mode unless told otherwise (graphql-js skips its development checks)
  const env = { NODE_ENV: 'production', ...process.env };
  let child = null;
  let stopping = false;
  const restarts = [];
  const startChild = () => {
    child = spawn(process.execPath, [...SERVER_FLAGS, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
    child.on('exit', (code, signal) => {
      const crashed = !stopping && (signal !== null || code === 70 || (code !== null && code >= 128));
      if (!crashed) {
        // asked to stop, or a deliberate failure (a usage mistake, a missing database): pass it on
        process.exit(code ?? 0);
        return;
      }
      const now = Date.now();
      while (restarts.length > 0 && now - restarts[0] > 60_000) restarts.shift();
      if (restarts.length >= 5) {
        console.error(`crkb: the server stopped (${signal ?? `exit ${code}`}) 5 times within a minute; giving up`);
        process.exit(1);
      }
      restarts.push(now);
      console.error(`crkb: the server stopped (${signal ?? `exit ${code}`}); starting it again`);
      setTimeout(startChild, 1000);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stopping = true;
      child?.kill(signal);
    });
  }
  // SIGHUP: the server loads its database file again
  process.on('SIGHUP', () => child?.kill('SIGHUP'));
  startChild();
} else {
  await import('../dist/src/cli/main.js');
}
