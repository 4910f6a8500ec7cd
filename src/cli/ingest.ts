import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { DEFAULT_LOCK_WAIT_MS, type IngestReport } from '../../ingest/store/runIngest.js';
import { runIngestInWorker } from '../../ingest/store/runIngestInWorker.js';
import { refusalOf } from '../db/openVerifiedDb.js';
import { pdfCacheDirFromEnv } from '../../ingest/store/pdfTextCache.js';
import { DEFAULT_DOWNLOAD_TIMEOUT_MS, expandInputs, planFromManifest, readManifest, type InputRef, type Manifest } from '../../ingest/store/sources.js';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { projectRoot } from '../core/projectFiles.js';
import { defaultDbFile, parseOptions } from './options.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb ingest [PATH|URL ...] [--archive DIR] [--fetch] [--db FILE] [--manifest FILE] [--edition DATE]
                   [--wait SECONDS] [--download-timeout SECONDS] [--json]

Ingests Comprehensive Rules editions and the tournament documents (Magic
Tournament Rules, Infraction Procedure Guide, Judging at Regular REL) into the
database. PATHs may be
files or folders (walked recursively); URLs are downloaded. With no PATH, walks
the sources manifest: local copies under --archive DIR (or $CRKB_ARCHIVE)
first, then, with --fetch, downloads the rest into data/cache/. PATHs given
with --archive DIR are ingested with the archive (e.g. ../shared/policy).
Text, Word, HTML and PDF files are read (a PDF's text layer; a PDF with no text
is rejected). A file whose head names the MTR, IPG or JAR is stored as an
edition of the family mtr, ipg or jar (the JAR numbers nothing: its units are
numbered by their position, 0 the introduction, 1, 2, ... its headings, 1.1,
1.2, ... the issues under one). A PDF's text is kept by sha256 in data/cache/pdf-text (or
$CRKB_PDF_CACHE; off: no cache), so later runs need not read it again.
Fragments and scraped pages are attached to the edition they match, or to
--edition DATE.

Each input stands alone: one that cannot be read (a dangling symbolic link, a
link loop, a download that fails, ends short or receives nothing for
--download-timeout SECONDS, default ${DEFAULT_DOWNLOAD_TIMEOUT_MS / 1000}) or used is rejected by name with
its reason, and the others are stored.

One ingest at a time writes a database: a run locks FILE.lock beside it. Another
run started meanwhile waits for it up to --wait SECONDS (default ${DEFAULT_LOCK_WAIT_MS / 1000}; 0: do not
wait), then gives up with one line, exit status 1, having written nothing. The
lock goes with the process that holds it, even when it is killed; a killed run's
temporary copy (FILE.tmp-PID) is deleted by the next run.

Exit status: 0 when every input was used, 2 when any input was rejected, 1 on
an error (nothing written).`;

/** `crkb ingest`: ingest files, folders, URLs or the manifest, then print the report. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      archive: { type: 'string' },
      fetch: { type: 'boolean', default: false },
      db: { type: 'string' },
      manifest: { type: 'string' },
      edition: { type: 'string' },
      wait: { type: 'string' },
      'download-timeout': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
  );
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const lockWaitMs = values.wait === undefined ? DEFAULT_LOCK_WAIT_MS : seconds('--wait', values.wait, true) * 1000;
  const downloadTimeout = values['download-timeout'];
  const downloadTimeoutMs = downloadTimeout === undefined ? DEFAULT_DOWNLOAD_TIMEOUT_MS : seconds('--download-timeout', downloadTimeout, false) * 1000;
  const dbFile = resolve(values.db ?? defaultDbFile());
  const archive = values.archive ?? process.env.CRKB_ARCHIVE ?? null;
  if (archive !== null && !existsSync(archive)) throw new UsageError(`--archive ${archive}: no such folder`, usage);
  const manifestFile = values.manifest ?? join(projectRoot(), 'data', 'sources.json');
  let manifest: Manifest | null = null;
  let inputs: InputRef[];
  let unavailable: Array<{ effectiveDate: string; reason: string }> = [];
  try {
    if (existsSync(manifestFile) || values.manifest) manifest = readManifest(manifestFile);
    // PATHs alone are what is ingested; with --archive given too, the archive is walked as with no PATH, and the PATHs join it
    if (positionals.length > 0 && values.archive === undefined) {
      inputs = expandInputs(positionals);
    } else {
      if (!manifest) throw new UsageError(`no PATH given and no sources manifest at ${manifestFile}`, usage);
      const plan = planFromManifest(manifest, archive === null ? null : resolve(archive), {
        fetch: values.fetch ?? false,
        cacheDir: join(projectRoot(), 'data', 'cache'),
      });
      // Files in the archive that the manifest does not know yet (newer editions) are ingested too.
      const extra = [...(archive === null ? [] : expandInputs([archive])), ...expandInputs(positionals)];
      const planned = new Set(plan.inputs.map((i) => i.location));
      inputs = [...plan.inputs, ...extra.filter((i) => !planned.has(i.location) && (planned.add(i.location), true))];
      unavailable = plan.unavailable;
    }
  } catch (e) {
    if (e instanceof IngestError) throw new UsageError(e.message, usage);
    throw e;
  }
  mkdirSync(dirname(dbFile), { recursive: true });
  const bar =
    !values.json && process.stderr.isTTY
      ? new SingleBar({ format: 'ingest [{bar}] {value}/{total} {file}', stream: process.stderr }, Presets.shades_classic)
      : null;
  bar?.start(inputs.length, 0, { file: '' });
  // on a worker thread, whose heap can be kept small
  const report = await runIngestInWorker({
    inputs,
    dbFile,
    unavailable,
    manifest,
    edition: values.edition ?? null,
    lockWaitMs,
    downloadTimeoutMs,
    pdfCache: pdfCacheDirFromEnv(),
    onLockWait: (ms) => console.error(`crkb ingest: another ingest is writing ${dbFile}; waiting for it (up to ${ms / 1000} s)`),
    onProgress: (done, total, current) => {
      // reading and parsing each count: the total is twice the inputs
      bar?.setTotal(total);
      bar?.update(done, { file: current.split('/').slice(-2).join('/') });
    },
  });
  bar?.stop();
  // the checks a server makes of the file, made now: its first start then skips SQLite's quick_check (a
  // whole read of the file). A file it would refuse (no CR edition yet) is for the server to name.
  refusalOf(dbFile, true);
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else console.log(formatReport(report));
  return report.rejected.length > 0 ? 2 : 0;
}

function seconds(option: string, value: string, zero: boolean): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || (n === 0 && !zero)) {
    throw new UsageError(`${option} must be a number of seconds (${zero ? '0 or more' : 'more than 0'}), not "${value}"`, usage);
  }
  return n;
}

/** Human-readable ingest report. */
export function formatReport(r: IngestReport): string {
  const out: string[] = [];
  if (r.editions.length > 0) {
    out.push('date        files  parts  sect  rules  examples  glossary  unacc  findings  warnings  status');
    for (const e of r.editions) {
      const c = e.counts;
      out.push(
        [
          (e.family === 'cr' ? '' : `${e.family}:`) + e.effectiveDate,
          String(e.files.length).padStart(5),
          String(c.parts).padStart(6),
          String(c.sections).padStart(5),
          String(c.rules).padStart(6),
          String(c.examples).padStart(9),
          String(c.glossary).padStart(9),
          String(e.unaccountedLines).padStart(6),
          String(e.findings).padStart(9),
          String(e.warnings.length).padStart(9),
          ` ${e.status}`,
        ].join(' '),
      );
      for (const f of e.files) {
        const tag =
          f.path === e.primary ? `stored: ${e.why}` : f.identicalTo ? 'merged, byte-identical' : `merged, ${f.differing} entries differ after normalization`;
        out.push(`    ${f.path} (${f.encoding}, ${f.lineEndings.join('+') || 'no line endings'}; ${tag})`);
        // a copy merged but not stored: its findings are its own (the stored copy's are counted above)
        const where = f.path === e.primary ? 'finding' : 'finding in this copy only (not stored)';
        for (const x of f.findings) out.push(`      ${where} ${f.path}:${x}`);
      }
      for (const w of e.warnings) out.push(`    warning: ${w}`);
    }
  }
  for (const f of r.fragments) {
    out.push(
      `fragment ${f.path} (${f.format}, ${f.rules} rules): ${f.attachedTo ? `attached to ${f.official ? '' : 'unofficial '}edition ${f.attachedTo}` : 'not attached'}; ${f.summary}`,
    );
  }
  const total = r.editions.reduce((n, e) => n + e.unaccountedLines, 0);
  const findings = r.editions.reduce((n, e) => n + e.findings, 0);
  const stored = r.skipped.filter((s) => s.reason.startsWith('already stored')).length;
  const copies = r.skipped.filter((s) => s.reason.startsWith('identical to')).length;
  out.push(
    `${r.editions.length} editions stored, ${stored} files already stored, ${copies} identical copies, ${r.rejected.length} rejected, ${total} unaccounted lines, ${findings} findings, ${r.seconds.toFixed(2)} s${r.wrote ? '' : ' (database unchanged)'}`,
  );
  for (const s of r.skipped) if (s.reason.startsWith('note') || s.reason.startsWith('not read')) out.push(`${s.source}: ${s.reason}`);
  for (const x of r.rejected) out.push(`rejected: ${x.source}: ${x.reason}`);
  for (const u of r.unavailable) out.push(`unavailable: ${u.effectiveDate}: ${u.reason}`);
  return out.join('\n');
}
