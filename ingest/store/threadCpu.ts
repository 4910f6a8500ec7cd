import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** CPU seconds used so far by each thread of this process, by thread id (Linux /proc; elsewhere none). */
export function threadCpu(): Map<number, number> {
  const dir = '/proc/self/task';
  const out = new Map<number, number>();
  if (!existsSync(dir)) return out;
  for (const tid of readdirSync(dir)) {
    try {
      // utime and stime: fields 14 and 15, counted after the parenthesized thread name
      const f = readFileSync(`${dir}/${tid}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      out.set(Number(tid), (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/**
 * CPU seconds of each thread of this process, the one running the ingest first; threads that ended
 * since `earlier` was taken (the parse workers) as they were then. Threads under 0.05 s are left out.
 */
export function threadCpuSeconds(earlier: Map<number, number>): number[] {
  const all = new Map([...earlier, ...threadCpu()]);
  if (all.size === 0) return [];
  const self = threadId();
  const others = [...all].filter(([tid, s]) => tid !== self && s >= 0.05).sort((a, b) => a[0] - b[0]);
  return [all.get(self) ?? 0, ...others.map(([, s]) => s)];
}

/** This thread's id in /proc ("PID/task/TID"; the main thread's is the process id). */
function threadId(): number {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    // no /proc/thread-self: the main thread
    return process.pid;
  }
}

/** This thread's id and CPU seconds so far (see threadCpu), for a thread that ends before the run reports; null where the OS does not tell. */
export function ownThreadCpu(): [tid: number, seconds: number] | null {
  const tid = threadId();
  const s = threadCpu().get(tid);
  return s === undefined ? null : [tid, s];
}
