import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../core/projectFiles.js';
import { defaultDbFile, parseOptions } from './options.js';
import { run as serve } from './serve.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb start [--db FILE] [--archive DIR] [--policy DIR] [--port 4000] [--host 127.0.0.1] [--workers N]

The main job: builds the database from the archive (default ../shared/corpus,
or $CRKB_ARCHIVE) and the tournament documents (default ../shared/policy, or
$CRKB_POLICY, when it exists) when it does not exist yet, then serves it as
"crkb serve" does.`;

/** `crkb start`: ingest the archive if the database is missing, then serve. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(
    argv,
    {
      db: { type: 'string' },
      archive: { type: 'string' },
      policy: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      workers: { type: 'string' },
    },
    usage,
    false,
  );
  const dbFile = resolve(values.db ?? defaultDbFile());
  if (!existsSync(dbFile)) {
    const archive = resolve(values.archive ?? process.env.CRKB_ARCHIVE ?? join(projectRoot(), '..', 'shared', 'corpus'));
    if (!existsSync(archive)) throw new UsageError(`no database at ${dbFile} and no archive at ${archive} to build it from`, usage);
    const policy = resolve(values.policy ?? process.env.CRKB_POLICY ?? join(projectRoot(), '..', 'shared', 'policy'));
    if (values.policy !== undefined && !existsSync(policy)) throw new UsageError(`--policy ${policy}: no such folder`, usage);
    const withPolicy = existsSync(policy) ? [policy] : [];
    console.log(`crkb: building ${dbFile} from ${[archive, ...withPolicy].join(' and ')} ...`);
    // In a process of its own: an ingest holds the parsed archive in memory, and this process
    // supervises the server for as long as it runs.
    const r = spawnSync(process.execPath, [join(projectRoot(), 'bin', 'crkb.js'), 'ingest', '--archive', archive, ...withPolicy, '--db', dbFile], {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    // the summary and what was rejected or unavailable; the per-edition table is `crkb editions`
    const lines = (r.stdout ?? '').split('\n');
    const from = lines.findIndex((l) => /^\d+ editions? stored/.test(l));
    if (from >= 0) console.log(lines.slice(from).join('\n').trimEnd());
    // exit 2: some inputs were rejected, the rest is stored
    if ((r.status !== 0 && r.status !== 2) || !existsSync(dbFile)) {
      throw new Error(`building ${dbFile} failed (ingest ${r.signal ? `killed by ${r.signal}` : `exited with ${r.status}`})`);
    }
  }
  const serveArgs = ['--db', dbFile];
  if (values.port) serveArgs.push('--port', values.port);
  if (values.host) serveArgs.push('--host', values.host);
  if (values.workers) serveArgs.push('--workers', values.workers);
  return serve(serveArgs);
}
