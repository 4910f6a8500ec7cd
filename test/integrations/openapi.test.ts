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

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Sends a real request and checks the response against the document: status listed, content type listed, body valid. */
async function check(method: 'get' | 'post', template: string, path: string, body?: unknown) {
  const res = await fetch(url + path, method === 'post' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {});
  const op = doc.paths[template]?.[method];
  assert.ok(op, `${method} ${template} documented`);
  const status = String(res.status);
  assert.ok(op.responses[status], `${path}: status ${status} documented`);
  const type = res.headers.get('content-type')!.split(';')[0]!;
  assert.ok(op.responses[status].content[type], `${path}: ${type} documented for ${status}`);
  const text = await res.text();
  const validate = ajv.getSchema(`openapi#/${pointer('paths', template, method, 'responses', status, 'content', type, 'schema')}`)!;
  const value = type === 'application/json' ? JSON.parse(text) : text;
  assert.ok(validate(value), `${path}: ${JSON.stringify(validate.errors)}`);
  if (body !== undefined) {
    const request = ajv.getSchema(`openapi#/${pointer('paths', template, method, 'requestBody', 'content', 'application/json', 'schema')}`)!;
    assert.equal(request(body), res.status === 200, `${path}: request body ${JSON.stringify(body)} ${JSON.stringify(request.errors)}`);
  }
  return value;
}

test('the OpenAPI 3.1 document lists the /v1 endpoints with the public URL', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(doc.servers, [{ url: 'https://crkb.test' }]);
  for (const p of ['/v1/lookup', '/v1/rules/{number}', '/v1/search', '/v1/citations']) assert.ok(doc.paths[p], p);
  // the schemas are strict: a response with a field too many or too few fails
  const lookup = ajv.getSchema('openapi#/components/schemas/LookupResult')!;
  assert.equal(lookup({ query: 'x', kind: 'rule', matched: null, edition: 'd', rules: [], glossary: [], suggestions: [], url: 'u', extra: 1 }), false);
  assert.equal(lookup({ query: 'x', kind: 'rule', matched: null, edition: 'd', rules: [], glossary: [], suggestions: [] }), false);
  assert.equal(lookup({ query: 'x', kind: 'rule', matched: null, edition: 'd', rules: [], glossary: [], suggestions: [], url: 'u' }), true);
});

test('real responses match the document: lookups, rules, search, citations, editions and errors', async () => {
  const a = await check('get', '/v1/lookup', '/v1/lookup?q=trample');
  assert.equal(a.kind, 'keyword');
  await check('get', '/v1/lookup', '/v1/lookup?q=702.19b%20ex%202');
  await check('get', '/v1/lookup', '/v1/lookup?q=define%20dies&format=text');
  await check('get', '/v1/lookup', '/v1/lookup?q=devotoin&format=markdown');
  await check('get', '/v1/lookup', '/v1/lookup?q=702.99');
  await check('get', '/v1/lookup', '/v1/lookup?q=trample&edition=someday');
  await check('get', '/v1/rules/{number}', '/v1/rules/702.19b?examples=1');
  await check('get', '/v1/rules/{number}', '/v1/rules/707.10?format=text');
  await check('get', '/v1/search', '/v1/search?q=trample&limit=3');
  await check('get', '/v1/search', '/v1/search?q=trample&limit=99');
  const c = await check('post', '/v1/citations', '/v1/citations', { text: 'See rule 706.10 and rule 999.9.', asOf: '2021-06-18' });
  assert.equal(c.citations[0].status, 'moved');
  await check('post', '/v1/citations', '/v1/citations', { numbers: ['500.1'], asOf: '2008-10-01', to: '2021-06-18' });
  await check('post', '/v1/citations', '/v1/citations', { numbers: ['706.10'], asOf: '2021-06-18', format: 'markdown' });
  await check('post', '/v1/citations', '/v1/citations', { text: 'rule 706.10' });
  await check('get', '/v1/editions/{edition}.json', '/v1/editions/2008-10-01.json');
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
