import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../core/projectFiles.js';
import { CONNECTION_LIMITS } from '../server/listen.js';
import { supervise, type SupervisorTimings } from '../server/supervise.js';
import { defaultDbFile, parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { existingDbFile } from './withKb.js';
import { knownFromManifest } from './knownFromManifest.js';
import { webhooksFromEnv } from './webhooksFromEnv.js';

export const usage = `Usage: crkb serve [--db FILE] [--port 4000] [--host 127.0.0.1] [--public-url URL] [--workers N]
                  [--db-url URL/current.json]

Serves the database read-only: the web app at / (rules, search, diffs,
history), GraphQL at /graphql, bot lookups at
/v1/lookup?q=… and /v1/rules/NUMBER, the published text files at
/v1/files/EDITION.txt (.utf8.txt: UTF-8, LF), citation checks at POST /v1/citations,
Atom feeds at /feed.atom and /feed/NUMBER.atom, the database at
/download/crkb.db, the API reference at /docs/api (/openapi.json). With
CRKB_DISCORD_PUBLIC_KEY set, Discord interactions at /discord/interactions.
Links in answers start with --public-url (default http://HOST:PORT); request
headers never change an answer.

Runs --workers server processes (default: one per core) sharing the port,
under a supervisor that replaces one that crashes or stops answering. A
database file replaced under the server (renamed into place, as ingest does),
or the file again on SIGHUP, is served by new processes once they have
checked and loaded it; the old ones finish their requests and exit. A file
that fails the check is not served (the old processes keep serving). Stops
gracefully on Ctrl-C or SIGTERM.

With --db-url (an artifact crkb publish wrote, served over HTTP), follows it:
polls current.json every CRKB_POLL_MS (30000) with If-None-Match, downloads a
new artifact beside --db, checks its size, sha256 and that it is a database
crkb serves, and renames it over --db (so the processes reload as above). A
failure is logged and the database served stays. A missing --db is fetched
before serving starts.

Timings (environment, milliseconds): CRKB_HANG_MS (5000: no heartbeat for
this long and a process is replaced), CRKB_START_MS (60000: start-up
allowance), CRKB_RESTART_MIN_MS and CRKB_RESTART_MAX_MS (1000, 30000: restart
delays, doubling), CRKB_HEALTHY_MS (60000: serving this long resets them),
CRKB_DRAIN_MS (10000), CRKB_WATCH_MS (1000: database file polling),
CRKB_IDLE_TIMEOUT_MS (30000: a connection with no progress is dropped);
CRKB_MAX_DOWNLOADS (16 per process at once).

Webhooks (with --db-url, and crkb update): CRKB_WEBHOOKS lists URLs (spaces
or commas; discord.com ones, or discord=URL, get a Discord message, others or
json=URL a JSON event) POSTed once per newer CR edition, signed with
CRKB_WEBHOOK_SECRET (X-Crkb-Signature: sha256=HMAC of "timestamp.body"),
retried with doubling delays; what each was told is kept in
CRKB_WEBHOOK_STATE (default: the database file + .webhooks.json).`;

// A server process keeps V8's heap small: under load the defaults let resident memory grow by
// tens of megabytes of garbage awaiting collection (the live heap is about 40 MB; 96 MB of old
// space leaves room for large answers). The supervisor itself loads no database.
const SERVER_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=96'];

/** A positive number from the environment, or the default. */
function fromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`$${name} must be a positive number, not "${raw.slice(0, 40)}"`, usage);
  return n;
}

function timings(): SupervisorTimings {
  return {
    hangMs: fromEnv('CRKB_HANG_MS', 5000),
    startMs: fromEnv('CRKB_START_MS', 60_000),
    restartMinMs: fromEnv('CRKB_RESTART_MIN_MS', 1000),
    restartMaxMs: fromEnv('CRKB_RESTART_MAX_MS', 30_000),
    healthyMs: fromEnv('CRKB_HEALTHY_MS', 60_000),
    drainMs: fromEnv('CRKB_DRAIN_MS', 10_000),
    watchMs: fromEnv('CRKB_WATCH_MS', 1000),
  };
}

/** A port free right now on host (`--port 0`: every server process, restarts included, must use the same one). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Follows --db-url: fetches the artifact first when the file is missing, then polls every $CRKB_POLL_MS; tells webhooks of a newer edition. */
async function startFollowing(url: string, file: string): Promise<{ stop(): void }> {
  const [{ followArtifact }, { refusalOf }] = await Promise.all([import('../integrations/fleet/followArtifact.js'), import('../db/openVerifiedDb.js')]);
  const log = (line: string): void => console.error(line);
  const hooks = await webhooksFromEnv(file, usage, log);
  // the first artifact a new replica fetches is no news; a later one with a newer edition is
  let initial = !existsSync(file);
  let previous: string | null = null;
  const seen = (m: { newestEdition: string | null; sha256: string }, news: boolean): void => {
    if (hooks && m.newestEdition) void hooks.seen({ edition: m.newestEdition, previous, sha256: m.sha256, source: 'serve' }, { news });
    previous = m.newestEdition;
  };
  const follower = followArtifact({
    url,
    file,
    refusal: refusalOf,
    log,
    onCurrent: (m) => seen(m, false),
    onUpdated: (m) => seen(m, !initial),
  });
  if (initial && (await follower.poll()) !== 'updated') throw new UsageError(`--db-url ${url}: no database to serve yet (see above)`, usage);
  initial = false;
  let polling = false;
  const timer = setInterval(
    () => {
      if (polling) return;
      polling = true;
      void follower.poll().finally(() => (polling = false));
    },
    fromEnv('CRKB_POLL_MS', 30_000),
  );
  return { stop: () => clearInterval(timer) };
}

/** `crkb serve`: serve the API until interrupted (the supervisor here; a server process in a cluster worker). */
export async function run(argv: string[]): Promise<number> {
  // before anything slow: a SIGHUP while starting is a reload request, never the end of the process
  if (cluster.isWorker) process.on('SIGHUP', () => undefined);
  const { values } = parseOptions(
    argv,
    {
      db: { type: 'string' },
      port: { type: 'string', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      'public-url': { type: 'string' },
      workers: { type: 'string' },
      'db-url': { type: 'string' },
    },
    usage,
    false,
  );
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, not "${values.port}"`, usage);
  const publicArg = values['public-url'];
  if (publicArg !== undefined && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(publicArg)) {
    throw new UsageError(`--public-url must be an http(s) URL like https://crkb.example, not "${publicArg.slice(0, 60)}"`, usage);
  }
  const workers = values.workers === undefined ? availableParallelism() : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 256)
    throw new UsageError(`--workers must be a whole number from 1 to 256, not "${values.workers}"`, usage);
  // a server process is given the supervisor's absolute path; a missing file is for it to refuse
  const dbUrl = values['db-url'];
  if (dbUrl !== undefined && !/^https?:\/\/\S+$/.test(dbUrl))
    throw new UsageError(`--db-url must be an http(s) URL of current.json, not "${dbUrl.slice(0, 60)}"`, usage);
  const follow = dbUrl !== undefined && !cluster.isWorker ? await startFollowing(dbUrl, resolve(values.db ?? defaultDbFile())) : null;
  const file = cluster.isWorker ? resolve(values.db ?? '') : existingDbFile(values.db, usage);
  const t = timings();
  if (cluster.isWorker) return serverProcess(file, port, values.host, publicArg, t);

  const fixedPort = port === 0 ? await freePort(values.host) : port;
  const code = await supervise({
    ...t,
    // bin/crkb.js: a server process runs from the serve bundle when it is built (scripts/buildCli.mjs)
    exec: join(projectRoot(), 'bin', 'crkb.js'),
    args: ['serve', '--db', file, '--port', String(fixedPort), '--host', values.host, ...(publicArg ? ['--public-url', publicArg] : [])],
    execArgv: [...SERVER_FLAGS, ...process.execArgv],
    // production mode unless told otherwise (graphql-js skips its development checks)
    env: { NODE_ENV: process.env.NODE_ENV ?? 'production' },
    file,
    workers,
    log: (line) => console.error(line),
    onServing: ({ url, sha256 }) =>
      console.log(
        `crkb: serving ${file} (sha256 ${sha256.slice(0, 12)}) from ${workers} server process${workers === 1 ? '' : 'es'}\n` +
          `  web app  ${url}/\n  GraphQL  ${url}/graphql\n  lookup   ${url}/v1/lookup?q=trample&format=text`,
      ),
  });
  follow?.stop();
  return code;
}

/** One server process: verifies and loads the database, then serves until the supervisor retires it. */
async function serverProcess(file: string, port: number, host: string, publicArg: string | undefined, t: SupervisorTimings): Promise<number> {
  // A bug that escapes every handler ends the process with exit 70: the supervisor starts another.
  process.on('uncaughtException', (e) => {
    console.error('crkb: uncaught error:', e);
    process.exit(70);
  });
  const [{ buildServer }, { runServerProcess, tellSupervisor, wholeMetrics }, { DbRefused }] = await Promise.all([
    import('../server/buildServer.js'),
    import('../server/serverProcess.js'),
    import('../db/openVerifiedDb.js'),
  ]);
  let url = '';
  let built;
  try {
    built = await buildServer({
      dbFile: file,
      publicUrl: () => (publicArg ?? url).replace(/\/$/, ''),
      maxDownloads: fromEnv('CRKB_MAX_DOWNLOADS', 16),
      wholeMetrics,
      knownEditions: await knownFromManifest(),
      diffsInBackground: true,
    });
  } catch (e) {
    if (!(e instanceof DbRefused)) throw e;
    // the supervisor names the file and the reason; exit once it has the message
    if (!tellSupervisor({ crkb: 'refused', reason: e.reason }, () => process.exit(78))) console.error(`crkb: ${e.message}`);
    return 78;
  }
  await runServerProcess(built, {
    port,
    host,
    heartbeatMs: Math.max(20, t.hangMs / 5),
    drainMs: t.drainMs,
    limits: { idleTimeoutMs: fromEnv('CRKB_IDLE_TIMEOUT_MS', CONNECTION_LIMITS.idleTimeoutMs) },
    onListening: (u) => (url = u),
  });
  return 0;
}
