import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { runIngest, type IngestReport } from '../../ingest/store/runIngest.js';
import { expandInputs, planFromManifest, readManifest, type InputRef, type Manifest } from '../../ingest/store/sources.js';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { projectRoot } from '../db/openDb.js';
import { defaultDbFile, parseOptions } from './options.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb ingest [PATH|URL ...] [--archive DIR] [--fetch] [--db FILE] [--manifest FILE] [--edition DATE] [--json]

Ingests Comprehensive Rules editions into the database. PATHs may be files or
folders (walked recursively); URLs are downloaded. With no PATH, walks the
sources manifest: local copies under --archive DIR (or $CRKB_ARCHIVE) first,
then, with --fetch, downloads the rest into data/cache/. Fragments and scraped
pages are attached to the edition they match, or to --edition DATE.

Exit status: 0 when every input was used, 2 when any input was rejected.`;

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
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
  );
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const dbFile = resolve(values.db ?? defaultDbFile());
  const archive = values.archive ?? process.env.CRKB_ARCHIVE ?? null;
  if (archive !== null && !existsSync(archive)) throw new UsageError(`--archive ${archive}: no such folder`, usage);
  const manifestFile = values.manifest ?? join(projectRoot(), 'data', 'sources.json');
  let manifest: Manifest | null = null;
  let inputs: InputRef[];
  let unavailable: Array<{ effectiveDate: string; reason: string }> = [];
  try {
    if (existsSync(manifestFile) || values.manifest) manifest = readManifest(manifestFile);
    if (positionals.length > 0) {
      inputs = expandInputs(positionals);
    } else {
      if (!manifest) throw new UsageError(`no PATH given and no sources manifest at ${manifestFile}`, usage);
      const plan = planFromManifest(manifest, archive === null ? null : resolve(archive), {
        fetch: values.fetch ?? false,
        cacheDir: join(projectRoot(), 'data', 'cache'),
      });
      // Files in the archive that the manifest does not know yet (newer editions) are ingested too.
      const extra = archive === null ? [] : expandInputs([archive]);
      const planned = new Set(plan.inputs.map((i) => i.location));
      inputs = [...plan.inputs, ...extra.filter((i) => !planned.has(i.location))];
      unavailable = plan.unavailable;
    }
  } catch (e) {
    if (e instanceof IngestError) throw new UsageError(e.message, usage);
    throw e;
  }
  mkdirSync(dirname(dbFile), { recursive: true });
  const bar = !values.json && process.stderr.isTTY ? new SingleBar({ format: 'ingest [{bar}] {value}/{total} {file}', stream: process.stderr }, Presets.shades_classic) : null;
  bar?.start(inputs.length, 0, { file: '' });
  const report = await runIngest({
    inputs,
    dbFile,
    unavailable,
    manifest,
    edition: values.edition ?? null,
    onProgress: (done, total, current) => {
      // reading and parsing each count: the total is twice the inputs
      bar?.setTotal(total);
      bar?.update(done, { file: current.split('/').slice(-2).join('/') });
    },
  });
  bar?.stop();
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else console.log(formatReport(report));
  return report.rejected.length > 0 ? 2 : 0;
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
          f.path === e.primary ? 'stored' : f.identicalTo ? 'merged, byte-identical' : `merged, ${f.differing} entries differ after normalization`;
        out.push(`    ${f.path} (${f.encoding}, ${f.lineEndings.join('+') || 'no line endings'}; ${tag})`);
        for (const x of f.findings) out.push(`      finding ${f.path}:${x}`);
      }
      for (const w of e.warnings) out.push(`    warning: ${w}`);
    }
  }
  for (const f of r.fragments) {
    out.push(`fragment ${f.path} (${f.format}, ${f.rules} rules): ${f.attachedTo ? `attached to ${f.official ? '' : 'unofficial '}edition ${f.attachedTo}` : 'not attached'}; ${f.summary}`);
  }
  const total = r.editions.reduce((n, e) => n + e.unaccountedLines, 0);
  const findings = r.editions.reduce((n, e) => n + e.findings, 0);
  const stored = r.skipped.filter((s) => s.reason.startsWith('already stored')).length;
  const copies = r.skipped.filter((s) => s.reason.startsWith('identical to')).length;
  out.push(
    `${r.editions.length} editions stored, ${stored} files already stored, ${copies} identical copies, ${r.rejected.length} rejected, ${total} unaccounted lines, ${findings} findings, ${r.seconds.toFixed(2)} s${r.wrote ? '' : ' (database unchanged)'}`,
  );
  for (const s of r.skipped) if (s.reason.startsWith('note')) out.push(`${s.source}: ${s.reason}`);
  for (const x of r.rejected) out.push(`rejected: ${x.source}: ${x.reason}`);
  for (const u of r.unavailable) out.push(`unavailable: ${u.effectiveDate}: ${u.reason}`);
  return out.join('\n');
}
