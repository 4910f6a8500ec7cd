import { serverAudits } from 'graphql-http';
import { buildServer } from './dist/src/server/buildServer.js';
import { listen } from './dist/src/server/listen.js';
import { fixtureDb } from './dist/test/server/fixtures.js';
const s = await buildServer({ db: fixtureDb() });
const l = await listen(s.app, 0);
for (const a of serverAudits({ url: `${l.url}/graphql` })) {
  const r = await a.fn();
  if (r.status !== 'ok') console.log(a.id, a.name, r.status, r.reason, r.response ? r.response.status : '');
  else console.log(a.id, 'ok');
}
await l.close();
