import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { runIngest } from '../../ingest/runIngest.js';
import { expandInputs, planFromManifest, readManifest } from '../../ingest/sources.js';
import { projectRoot } from '../db/openDb.js';
import { formatReport } from './ingest.js';
import { defaultDbFile, parseOptions } from './options.js';
import { run as serve } from './serve.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb start [--db FILE] [--archive DIR] [--port 4000] [--host 127.0.0.1]

The main job: builds the database from the archive (default ../shared/corpus,
or $CRKB_ARCHIVE) when it does not exist yet, then serves it.`;

/** `crkb start`: ingest the archive if the database is missing, then serve. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(
    argv,
    { db: { type: 'string' }, archive: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } },
    usage,
    false,
  );
  const dbFile = resolve(values.db ?? defaultDbFile());
  if (!existsSync(dbFile)) {
    const archive = resolve(values.archive ?? process.env.CRKB_ARCHIVE ?? join(projectRoot(), '..', 'shared', 'corpus'));
    if (!existsSync(archive)) throw new UsageError(`no database at ${dbFile} and no archive at ${archive} to build it from`, usage);
    console.log(`crkb: building ${dbFile} from ${archive} ...`);
    const manifest = readManifest(join(projectRoot(), 'data', 'sources.json'));
    const plan = planFromManifest(manifest, archive, { fetch: false, cacheDir: join(projectRoot(), 'data', 'cache') });
    const planned = new Set(plan.inputs.map((i) => i.location));
    const inputs = [...plan.inputs, ...expandInputs([archive]).filter((i) => !planned.has(i.location))];
    mkdirSync(dirname(dbFile), { recursive: true });
    const report = await runIngest({ inputs, dbFile, manifest, unavailable: plan.unavailable });
    console.log(formatReport(report).split('\n').slice(-1 - report.rejected.length - report.unavailable.length).join('\n'));
  }
  const serveArgs = ['--db', dbFile];
  if (values.port) serveArgs.push('--port', values.port);
  if (values.host) serveArgs.push('--host', values.host);
  return serve(serveArgs);
}
