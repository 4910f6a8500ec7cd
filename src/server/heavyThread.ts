import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../core/projectFiles.js';
import { runBundle } from '../core/runBundle.js';
import type { HeavyResult, HeavyTask } from './heavyTask.js';

// What a heavy worker thread runs (HeavyPool): heavyWorker.ts from its CommonJS bundle
// (scripts/buildCli.mjs: dist/cli/heavyWorker.cjs) with V8's code cache of it kept beside it, as a
// query command runs (src/core/runBundle.ts), when the bundle is as new as the compiled module; the
// module itself otherwise (a build that only ran tsc). A thread loads every module of the server
// again (threads share no compiled code): resolving, reading and compiling them is the larger part
// of its start.
type Answer = (task: HeavyTask) => Promise<HeavyResult>;
const mtime = (file: string): number => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;
const bundle = join(projectRoot(), 'dist', 'cli', 'heavyWorker.cjs');
let answer: Answer;
let saveCache = (): void => undefined;
if (mtime(bundle) >= mtime(fileURLToPath(new URL('./heavyWorker.js', import.meta.url)))) {
  // (a thread is terminated, never exits: the cache is written once the thread is ready)
  const ran = runBundle(bundle, join(projectRoot(), 'dist', 'cli', 'heavyWorker.v8cache'), { saveOnExit: false });
  answer = (ran.exports as { default: Answer }).default;
  saveCache = () => ran.saveCache();
} else answer = (await import('./heavyWorker.js')).default;

/** Answers one forwarded request on this worker thread (heavyWorker.ts). */
export default async function heavyThread(task: HeavyTask): Promise<HeavyResult> {
  const r = await answer(task);
  if (task.method === 'PING') setImmediate(saveCache);
  return r;
}
