#!/usr/bin/env node
import { spawn } from 'node:child_process';

// The server keeps V8's heap small: under load the defaults let resident memory grow by
// tens of megabytes of garbage awaiting collection (the live heap is about 30 MB; 96 MB of
// old space leaves room for large answers). V8 reads these flags only at start-up, so the
// long-running commands re-run themselves with them.
const SERVER_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=96'];
const command = process.argv[2];
if ((command === 'serve' || command === 'start') && !process.execArgv.some((a) => a.startsWith('--max-semi-space-size'))) {
  // production mode unless told otherwise (graphql-js skips its development checks)
  const env = { NODE_ENV: 'production', ...process.env };
  const child = spawn(process.execPath, [...SERVER_FLAGS, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else {
  await import('../dist/src/cli/main.js');
}
