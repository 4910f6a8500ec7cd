import { statSync, unwatchFile, watchFile } from 'node:fs';
import { buildServer } from '../server/buildServer.js';
import { listen } from '../server/listen.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { existingDbFile } from './withKb.js';

export const usage = `Usage: crkb serve [--db FILE] [--port 4000] [--host 127.0.0.1] [--public-url URL]

Serves the database read-only: the web app at / (rules, search, diffs,
history), GraphQL at /graphql, bot lookups at
/v1/lookup?q=… and /v1/rules/NUMBER, citation checks at POST /v1/citations,
Atom feeds at /feed.atom and /feed/NUMBER.atom, the database at
/download/crkb.db, the API reference at /docs/api (/openapi.json). With
CRKB_DISCORD_PUBLIC_KEY set, Discord interactions at /discord/interactions.
Links in answers start with --public-url (default http://HOST:PORT); request
headers never change an answer. A database file replaced under the server
(renamed into place, as ingest does) is loaded and served without a restart;
so is the file again on SIGHUP. Stops on Ctrl-C.`;

/** `crkb serve`: serve the API until interrupted. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(
    argv,
    {
      db: { type: 'string' },
      port: { type: 'string', default: '4000' },
      host: { type: 'string', default: '127.0.0.1' },
      'public-url': { type: 'string' },
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
  const file = existingDbFile(values.db, usage);
  // A bug that escapes every handler ends the process with exit 70: bin/crkb.js starts it again.
  process.on('uncaughtException', (e) => {
    console.error('crkb: uncaught error:', e);
    process.exit(70);
  });
  let url = '';
  const built = await buildServer({ dbFile: file, publicUrl: () => (publicArg ?? url).replace(/\/$/, '') });
  const l = await listen(built.app, port, values.host);
  url = l.url;
  console.log(`crkb: serving ${file}\n  web app  ${l.url}/\n  GraphQL  ${l.url}/graphql\n  lookup   ${l.url}/v1/lookup?q=trample&format=text`);
  // A new file renamed into place has another inode; a rewrite in place another mtime.
  const identity = (): string => {
    try {
      const s = statSync(file);
      return `${s.ino}:${s.mtimeMs}`;
    } catch {
      return '';
    }
  };
  let served = identity();
  const reload = (why: string): void => {
    const now = identity();
    if (now === '' || (now === served && why !== 'SIGHUP')) return;
    if (built.reload()) {
      served = now;
      console.log(`crkb: ${why}: now serving the database as of ${new Date().toISOString()}`);
    }
  };
  watchFile(file, { interval: 1000 }, () => reload('database replaced'));
  const onHup = (): void => reload('SIGHUP');
  process.on('SIGHUP', onHup);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  unwatchFile(file);
  process.off('SIGHUP', onHup);
  await l.close();
  built.close();
  return 0;
}
