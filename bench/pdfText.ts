/**
 * PDF text benchmark: the CPU a cold ingest spends reading PDFs, apart from the rest of the ingest.
 * Reads every PDF under the given folders (default ../shared/policy) with this build's readPdf
 * (PDFium, then the grouping of its characters into runs) and pdfText (runs to lines and
 * paragraphs), and, with --baseline DIR (repeatable; NAME=DIR names it), with other builds' (a
 * checkout with dist/ built) side by side, each build in a process of its own, in turn, --rounds
 * times. Prints each build's median CPU seconds (process: PDFium's and V8's helper threads too) and
 * wall seconds, its heap, the costliest files, and whether its text is the same as this build's.
 * Usage: node dist/bench/pdfText.js [--dir DIR ...] [--rounds N] [--top N] [--baseline [NAME=]DIR ...]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs } from './benchArgs.js';
import { median, namedCheckout, requireBuiltCheckouts } from './processes.js';
import type { PdfPage } from '../ingest/parse/pdfText.js';
import { projectRoot } from '../src/core/projectFiles.js';

const USAGE = `Usage: node dist/bench/pdfText.js [--dir DIR ...] [--rounds N] [--top N] [--baseline [NAME=]DIR ...]
(see the comment at the top of bench/pdfText.ts for what each does)`;

const values = benchArgs('pdfText', USAGE, {
  dir: { type: 'string', multiple: true, default: [] },
  rounds: { type: 'string', default: '3' },
  top: { type: 'string', default: '5' },
  baseline: { type: 'string', multiple: true, default: [] },
  // internal: the process that measures one build
  measure: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
});
const root = projectRoot();

/** One build's reading of every PDF. */
interface Measure {
  files: number;
  pages: number;
  /** CPU and wall seconds of readPdf and of pdfText, over all files. */
  readCpu: number;
  readWall: number;
  textCpu: number;
  /** Peak V8 heap (MB) and resident set (MB) after the run. */
  heapMb: number;
  rssMb: number;
  /** sha256 of every file's pdfText output, in file order. */
  textHash: string;
  /** [file, pages, CPU ms of readPdf] of every file. */
  perFile: Array<[string, number, number]>;
}

function pdfsUnder(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) if (/\.pdf$/i.test(f)) out.push(join(dir, f));
  return out;
}

function cpuSeconds(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1e6;
}

async function measure(dir: string, folders: string[]): Promise<Measure> {
  const { readPdf } = (await import(pathToFileURL(join(dir, 'dist/ingest/store/readPdf.js')).href)) as {
    readPdf: (location: string, bytes: Uint8Array) => Promise<PdfPage[]>;
  };
  const { pdfText } = (await import(pathToFileURL(join(dir, 'dist/ingest/parse/pdfText.js')).href)) as {
    pdfText: (pages: PdfPage[]) => { text: string };
  };
  // PDFium's WASM is loaded on the first read: load it before the clock starts
  await readPdf('warm-up', Buffer.from('%PDF-1.4\n%%EOF\n')).catch(() => undefined);
  const files = folders.flatMap(pdfsUnder);
  const hash = createHash('sha256');
  const m: Measure = { files: files.length, pages: 0, readCpu: 0, readWall: 0, textCpu: 0, heapMb: 0, rssMb: 0, textHash: '', perFile: [] };
  for (const file of files) {
    const bytes = readFileSync(file);
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    const pages = await readPdf(file, bytes);
    const cpu = cpuSeconds(c0);
    m.readCpu += cpu;
    m.readWall += (performance.now() - w0) / 1000;
    const c1 = process.cpuUsage();
    hash.update(pdfText(pages).text).update('\u0000');
    m.textCpu += cpuSeconds(c1);
    m.pages += pages.length;
    m.perFile.push([relative(resolve(folders[0]!, '..'), file), pages.length, cpu * 1000]);
    m.heapMb = Math.max(m.heapMb, process.memoryUsage().heapUsed / 2 ** 20);
  }
  m.rssMb = process.memoryUsage().rss / 2 ** 20;
  m.textHash = hash.digest('hex');
  return m;
}

const folders = (values.dir.length > 0 ? values.dir : ['../shared/policy']).map((d) => resolve(root, d));
for (const f of folders) {
  if (!existsSync(f)) {
    console.error(`bench/pdfText: --dir ${f}: no such folder\n${USAGE}`);
    process.exit(1);
  }
}

if (values.measure !== undefined) {
  console.log(JSON.stringify(await measure(values.measure, folders)));
  process.exit(0);
}

const builds = [{ name: 'this build', dir: root }, ...values.baseline.map(namedCheckout)];
requireBuiltCheckouts(
  'pdfText',
  builds.map((b) => b.dir),
  'dist/ingest/store/readPdf.js',
);
const rounds = Math.max(1, Number(values.rounds));
const results = new Map<string, Measure[]>(builds.map((b) => [b.name, []]));
for (let r = 0; r < rounds; r++) {
  for (const b of builds) {
    const out = spawnSync(process.execPath, [process.argv[1]!, '--measure', b.dir, ...folders.flatMap((f) => ['--dir', f])], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (out.status !== 0) throw new Error(`bench/pdfText: ${b.name} failed (${out.status}): ${out.stderr}`);
    results.get(b.name)!.push(JSON.parse(out.stdout) as Measure);
  }
}

const mine = results.get('this build')![0]!;
console.log(`PDFs: ${folders.join(', ')}: ${mine.files} files, ${mine.pages} pages; ${rounds} round(s), builds in turn, medians`);
console.log('build'.padEnd(14) + 'readPdf cpu   readPdf wall   pdfText cpu   ms cpu/page   peak heap   rss      same text');
for (const b of builds) {
  const ms = results.get(b.name)!;
  const read = median(ms.map((m) => m.readCpu));
  console.log(
    b.name.padEnd(14) +
      `${read.toFixed(2)} s`.padEnd(14) +
      `${median(ms.map((m) => m.readWall)).toFixed(2)} s`.padEnd(15) +
      `${median(ms.map((m) => m.textCpu)).toFixed(2)} s`.padEnd(14) +
      `${((read * 1000) / ms[0]!.pages).toFixed(2)}`.padEnd(14) +
      `${median(ms.map((m) => m.heapMb)).toFixed(0)} MB`.padEnd(12) +
      `${median(ms.map((m) => m.rssMb)).toFixed(0)} MB`.padEnd(9) +
      (ms.every((m) => m.textHash === mine.textHash) ? 'yes' : 'NO'),
  );
}
const top = Math.max(0, Number(values.top));
if (top > 0) {
  console.log(`costliest files (this build, first round; readPdf CPU):`);
  for (const [file, pages, ms] of [...mine.perFile].sort((a, b) => b[2] - a[2]).slice(0, top))
    console.log(`  ${file}: ${pages} pages, ${ms.toFixed(0)} ms (${(ms / Math.max(1, pages)).toFixed(2)} ms/page)`);
}
