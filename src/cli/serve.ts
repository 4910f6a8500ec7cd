import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { buildServer } from '../server/buildServer.js';
import { listen } from '../server/listen.js';
import { defaultDbFile, parseOptions } from './options.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb serve [--db FILE] [--port 4000] [--host 127.0.0.1] [--public-url URL]

Serves the database read-only: the web app at / (rules, search, diffs,
history), GraphQL (GraphiQL in a browser) at /graphql, bot lookups at
/v1/lookup?q=… and /v1/rules/NUMBER. Stops on Ctrl-C.`;

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
  const file = resolve(values.db ?? defaultDbFile());
  if (!existsSync(file)) {
    throw new UsageError(`database ${file} does not exist: build it with "npx crkb ingest --archive ../shared/corpus"`, usage);
  }
  const built = await buildServer({ dbFile: file, publicUrl: values['public-url'] });
  const l = await listen(built.app, port, values.host);
  console.log(`crkb: serving ${file}\n  web app  ${l.url}/\n  GraphQL  ${l.url}/graphql\n  lookup   ${l.url}/v1/lookup?q=trample&format=text`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await l.close();
  built.close();
  return 0;
}
