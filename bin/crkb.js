#!/usr/bin/env node
import { spawn } from 'node:child_process';

// The server keeps V8's young generation small: under load the default lets resident
// memory grow by tens of megabytes of short-lived garbage. V8 reads this flag only at
// start-up, so the long-running commands re-run themselves with it.
const SERVER_FLAGS = ['--max-semi-space-size=4'];
const command = process.argv[2];
if ((command === 'serve' || command === 'start') && !process.execArgv.some((a) => a.startsWith('--max-semi-space-size'))) {
  const child = spawn(process.execPath, [...SERVER_FLAGS, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else {
  await import('../dist/src/cli/main.js');
}
