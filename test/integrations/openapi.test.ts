import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fixtureDbWithLineage } from '../server/fixtures.js';
import { fixtureServer, type J } from '../server/helpers.js';

let url = '';
let stop: () => Promise<void>;
let doc: J;
const ajv = new Ajv2020({ strict: false, allErrors: true });
before(async () => {
  const srv = await fixtureServer({ publicUrl: 'https://crkb.test' }, fixtureDbWithLineage());
  url = srv.url;
  stop = srv.close;
  doc = await (await fetch(`${url}/openapi.json`)).json();
  ajv.addSchema(doc, 'openapi');
});
after(() => stop());

test('the OpenAPI 3.1 document lists the /v1 endpoints with the public URL', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(doc.servers, [{ url: 'https://crkb.test' }]);
  for (const p of ['/v1/lookup', '/v1/rules/{number}', '/v1/search', '/v1/citations', '/v1/files/{edition}.txt', '/v1/files/{edition}.utf8.txt'])
    assert.ok(doc.paths[p], p);
  // the schemas are strict (openapiContract.test validates every route's responses against them): a response with a field too many or too few fails
  const lookup = ajv.getSchema('openapi#/components/schemas/LookupResult')!;
  assert.equal(lookup({ query: 'x', kind: 'rule', matched: null, edition: 'd', rules: [], glossary: [], suggestions: [], url: 'u', extra: 1 }), false);
  assert.equal(lookup({ query: 'x', kind: 'rule', matched: null, edition: 'd', rules: [], glossary: [], suggestions: [] }), false);
  assert.equal(lookup({ query: 'x', kind: 'rule', matched: null, edition: 'd', rules: [], glossary: [], suggestions: [], url: 'u', newerKnown: null }), true);
});

test('the rendered reference page is served locally, without scripts or remote assets', async () => {
  const res = await fetch(`${url}/docs/api`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/html/);
  const html = await res.text();
  assert.match(html, /<code>\/v1\/citations<\/code>/);
  assert.match(html, /id="schema-LookupResult"/);
  assert.doesNotMatch(html, /<script|<link[^>]+href="https?:|src="https?:/);
});
