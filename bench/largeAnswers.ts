/**
 * bench/largeAnswers: the server's CPU time for a large answer asked again and again (an edition as
 * JSON, a far web diff, the glossary page), per encoding the client accepts, with the answer cache
 * on. The server runs in a child process (the flags `crkb serve` uses); its CPU time is read from
 * /proc. With --baseline DIR, the same for another built checkout, side by side.
 *
 *   node dist/bench/largeAnswers.js [--db data/crkb.db] [--requests 20] [--baseline DIR]
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KnowledgeBase } from '../src/query/KnowledgeBase.js';
import { cpuMs, startListening } from './processes.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
    requests: { type: 'string', default: '20' },
    baseline: { type: 'string' },
    'node-flags': { type: 'string', default: '--max-semi-space-size=4 --max-old-space-size=96' },
  },
});
const dbFile = resolve(values.db);
if (!existsSync(dbFile)) {
  console.error(`bench/largeAnswers: ${dbFile} missing; build it with "npx crkb ingest --archive ../shared/corpus"`);
  process.exit(1);
}
const n = Number(values.requests);

const kb = KnowledgeBase.open(dbFile);
const latest = kb.resolveEdition('latest').edition.effectiveDate;
kb.close();
const paths = [`/v1/editions/${latest}.json`, '/diff/2009-05-01/latest', `/cr/${latest}/glossary`];
const encodings = ['br', 'gzip', 'identity'];

function startChild(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const flags = values['node-flags'].split(/\s+/).filter((f) => f !== '');
  return startListening([...flags, resolve(dir, 'dist/src/server/listen.js'), dbFile, '0']);
}

interface Row {
  first: number;
  repeat: number;
  wall: number;
  bytes: number;
  encoding: string;
}

async function measure(dir: string): Promise<Map<string, Row>> {
  const { child, url } = await startChild(dir);
  const rows = new Map<string, Row>();
  try {
    for (const path of paths) {
      for (const enc of encodings) {
        // node:http, not fetch: fetch decodes br and gzip itself, and the bytes on the wire are the figure
        const get = () =>
          new Promise<{ encoding: string; bytes: number }>((done, fail) => {
            http
              .get(url + path, { headers: { 'accept-encoding': enc } }, (res) => {
                let bytes = 0;
                res.on('data', (d: Buffer) => (bytes += d.length));
                res.on('end', () => done({ encoding: String(res.headers['content-encoding'] ?? 'identity'), bytes }));
              })
              .on('error', fail);
          });
        const c0 = cpuMs(child.pid!);
        const first = await get();
        const c1 = cpuMs(child.pid!);
        const t = performance.now();
        for (let i = 0; i < n; i++) await get();
        const wall = (performance.now() - t) / n;
        const c2 = cpuMs(child.pid!);
        rows.set(`${path} ${enc}`, { first: c1 - c0, repeat: (c2 - c1) / n, wall, bytes: first.bytes, encoding: first.encoding });
      }
    }
  } finally {
    child.kill('SIGTERM');
  }
  return rows;
}

const builds: Array<[string, string]> = [['this build', process.cwd()]];
if (values.baseline) builds.push(['baseline', resolve(values.baseline)]);
const results = new Map<string, Map<string, Row>>();
for (const [name, dir] of builds) results.set(name, await measure(dir));

console.log(`server CPU ms per request (from /proc, 10 ms ticks: the repeat figure is the mean of ${n}), wall ms, encoding sent and bytes`);
const head = ['answer', 'accept', ...builds.flatMap(([b]) => [`${b}: 1st cpu`, `repeat cpu`, `repeat wall`, 'sent'])];
console.log(head.join(' | '));
for (const path of paths) {
  for (const enc of encodings) {
    const cells = builds.flatMap(([b]) => {
      const r = results.get(b)!.get(`${path} ${enc}`)!;
      return [r.first.toFixed(0), r.repeat.toFixed(1), r.wall.toFixed(1), `${r.encoding} ${(r.bytes / 1024).toFixed(0)} KB`];
    });
    console.log([path, enc, ...cells].join(' | '));
  }
}
