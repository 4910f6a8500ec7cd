import { parentPort, workerData } from 'node:worker_threads';
import { cachePdfPages } from './pdfTextCache.js';
import { DONE, FREE, READING, type ReadAheadJob } from './pdfReadAhead.js';
import { readPdf } from './readPdf.js';
import { readLocalInput } from './sources.js';
import { ownThreadCpu } from './threadCpu.js';

// The read-ahead thread (see startPdfReadAhead): each PDF no parse worker has taken, read into the cache.
const { jobs, claims } = workerData as { jobs: ReadAheadJob[]; claims: SharedArrayBuffer };
const state = new Int32Array(claims);
for (const job of jobs) {
  if (Atomics.compareExchange(state, job.slot, FREE, READING) !== FREE) continue;
  try {
    const { bytes, sha256 } = readLocalInput({ kind: 'file', location: job.path });
    // a file changed since it was read is the parse worker's to report
    if (sha256 === job.sha256) cachePdfPages(job.dir, job.sha256, await readPdf(job.path, bytes));
  } catch {
    // a PDF that cannot be read: the parse worker reads it again and reports why
  } finally {
    Atomics.store(state, job.slot, DONE);
    Atomics.notify(state, job.slot);
  }
}
// the thread ends now (its memory with it): the run's report counts its CPU time from this
parentPort?.postMessage(ownThreadCpu());
