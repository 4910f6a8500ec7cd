import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
import { workerData, type MessagePort } from 'node:worker_threads';
import inject from 'light-my-request';
import { KnowledgeBase } from '../query/KnowledgeBase.js';
import { buildServer } from './buildServer.js';
import type { HeavyResult, HeavyTask, WorkerSetup } from './heavyTask.js';

/** Response headers a forwarded answer keeps (the serving thread sets the rest: CORS, encoding, length). */
const KEPT = ['content-type', 'etag', 'cache-control', 'location', 'content-disposition', 'retry-after', 'last-modified'];

const setup = workerData as WorkerSetup;

/** The verified file's bytes, read through the serving thread's descriptor: its path may name another file by now. */
function readHeld(h: NonNullable<WorkerSetup['dbHeld']>): Uint8Array {
  const bytes = Buffer.allocUnsafe(h.size);
  for (let pos = 0; pos < h.size;) {
    const n = readSync(h.fd, bytes, pos, h.size - pos, pos);
    if (n === 0) break;
    pos += n;
  }
  if (createHash('sha256').update(bytes).digest('hex') !== h.sha256) throw new Error('the database file changed since it was verified');
  return bytes;
}

let publicUrl = 'http://127.0.0.1:4000';
// The held file is opened in place where it can be (no copy of the whole database in this thread's
// memory); its bytes are read into memory otherwise.
const held = setup.dbHeld ? KnowledgeBase.openHeldDb(setup.dbHeld) : null;
// The same app as the serving thread, answering everything inline: one code path for every answer. (A
// promise, not a top-level await: the module is also bundled as CommonJS, scripts/buildCli.mjs.)
const building = buildServer({
  ...setup.server,
  ...(held ? { db: held, dbSha256: setup.dbHeld!.sha256 } : { dbImage: setup.dbHeld ? readHeld(setup.dbHeld) : setup.dbImage! }),
  warmSearch: false,
  warmKeywords: false,
  publicUrl: () => publicUrl,
  responseCache: false,
  heavyThreads: 0,
});

/** Answers one forwarded request on this worker thread. */
export default async function answer(task: HeavyTask & { started?: MessagePort }): Promise<HeavyResult> {
  const built = await building;
  // the knowledge base is loaded: this thread is ready
  if (task.method === 'PING') return { status: 204, headers: {}, body: new Uint8Array(0) };
  // the pool's time budget starts now (the wait for this thread is bounded apart)
  task.started?.postMessage(1);
  task.started?.close();
  publicUrl = task.publicUrl;
  if (task.graphql) {
    const scope = { exact: 0, loose: 0 };
    const g = task.graphql;
    const r = await built.graphql(g.query, g.variables, { scope, ...(g.operationName ? { operationName: g.operationName } : {}) });
    return { status: r.status, headers: { 'content-type': r.contentType }, body: Buffer.from(r.body), scope };
  }
  const r = await inject(built.app, {
    method: task.method as 'GET',
    url: task.url,
    headers: task.headers,
    ...(task.body ? { payload: Buffer.from(task.body) } : {}),
    // the bytes only: a finished answer's payload would also be decoded to a string (a diff page's 200-800 KB), unread
    payloadAsStream: true,
  });
  const chunks: Buffer[] = [];
  for await (const c of r.stream()) chunks.push(c as Buffer);
  const headers = Object.fromEntries(KEPT.filter((h) => r.headers[h] !== undefined).map((h) => [h, String(r.headers[h])]));
  return { status: r.statusCode, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) };
}
