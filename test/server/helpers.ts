import { buildServer, type BuildServerOptions } from '../../src/server/buildServer.js';
import { listen } from '../../src/server/listen.js';
import { fixtureDb } from './fixtures.js';

/** A server over a fresh fixture database, listening on a loopback port. */
export async function fixtureServer(opts: Partial<BuildServerOptions> = {}) {
  const db = fixtureDb();
  const built = await buildServer({ db, engine: {}, ...opts });
  const l = await listen(built.app, 0);
  return {
    ...built,
    url: l.url,
    async close() {
      await l.close();
      db.close();
    },
  };
}

// Test results are read field by field; a loose type keeps assertions short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type J = any;

/** Runs a GraphQL query in-process through yoga.fetch. */
export async function gql(
  yoga: { fetch: (url: string, init: RequestInit) => Response | Promise<Response> },
  query: string,
  variables: Record<string, unknown> = {},
) {
  const res = await yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) as { data?: J; errors?: J[] } };
}
