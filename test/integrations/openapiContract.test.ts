import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { corpusDb } from '../cli/corpusDb.js';
import { sharedServer, type J } from '../server/helpers.js';

// The OpenAPI document as a contract, on the corpus database: every documented /v1 route is called
// with realistic and edge-case parameters, and every response's status, media type and body are
// validated against the document (ajv's JSON Schema 2020-12: an OpenAPI 3.1 document's schemas are
// that dialect); every documented status and media type must be met by some call. The document lints
// clean with Redocly's recommended rules.
const shared = sharedServer(corpusDb(), { publicUrl: 'https://crkb.test', responseCache: false });
const ajv = new Ajv2020({ strict: false, allErrors: true });
let doc: J;
/** The document, read once the shared server is up (a file's before hooks are not ordered after sharedServer's). */
async function loadDoc(): Promise<void> {
  if (doc) return;
  doc = await (await fetch(`${shared.l.url}/openapi.json`)).json();
  ajv.addSchema(doc, 'openapi');
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
/** Every (route, method, status, media type) a response met. */
const met = new Set<string>();
after(() => met.clear());

interface Call {
  route: string;
  path: string;
  body?: string;
}
const get = (route: string, path: string): Call => ({ route, path });
const post = (body: unknown): Call => ({ route: '/v1/citations', path: '/v1/citations', body: typeof body === 'string' ? body : JSON.stringify(body) });
const long = 'x'.repeat(600);

const CALLS: Call[] = [
  // lookups: every kind of answer, every format, the edges of each argument
  ...[
    'trample',
    '702.19b',
    'CR 702.19B',
    '601.2a-h',
    '702.19b ex 2',
    'define dies',
    'what is a token',
    'sba',
    'devotoin',
    '702.99',
    'zzzzqqq',
    '999.9',
    '702.19z',
    '702.19b ex 9',
  ].flatMap((q) => ['json', 'text', 'markdown'].map((f) => get('/v1/lookup', `/v1/lookup?q=${encodeURIComponent(q)}&format=${f}`))),
  get('/v1/lookup', '/v1/lookup?q=702&format=text&full=1'),
  get('/v1/lookup', '/v1/lookup?q=702&format=markdown&full=1&examples=1'),
  get('/v1/lookup', '/v1/lookup?q=702.19&examples=1&edition=2009-07-11'),
  get('/v1/lookup', '/v1/lookup?q=trample&edition=someday'),
  get('/v1/lookup', '/v1/lookup?q=trample&edition=someday&format=markdown'),
  get('/v1/lookup', '/v1/lookup?q=trample&edition=someday&format=text'),
  get('/v1/lookup', '/v1/lookup?q=trample&format=xml'),
  get('/v1/lookup', '/v1/lookup'),
  get('/v1/lookup', `/v1/lookup?q=${long}`),
  get('/v1/lookup', '/v1/lookup?q=trample&q=haste'),
  // rules
  ...['702.19b', '707.10', '100', '702.19b.', 'cr 702.19b'].flatMap((n) =>
    ['json', 'text', 'markdown'].map((f) => get('/v1/rules/{number}', `/v1/rules/${encodeURIComponent(n)}?format=${f}&examples=1`)),
  ),
  get('/v1/rules/{number}', '/v1/rules/702?format=text&full=1'),
  get('/v1/rules/{number}', '/v1/rules/706.10?edition=2021-06-18'),
  ...['json', 'text', 'markdown'].flatMap((f) => [
    get('/v1/rules/{number}', `/v1/rules/999.9?format=${f}`),
    get('/v1/rules/{number}', `/v1/rules/banana?format=${f}`),
  ]),
  // search
  ...['json', 'text', 'markdown'].map((f) => get('/v1/search', `/v1/search?q=trample&limit=3&format=${f}`)),
  get('/v1/search', '/v1/search?q=trample&limit=50&edition=2009-05-01'),
  get('/v1/search', '/v1/search?q=%22NEAR(*%20OR'),
  get('/v1/search', '/v1/search?q=qqqqzzzz'),
  get('/v1/search', '/v1/search?q=trample&limit=0'),
  get('/v1/search', '/v1/search?q=trample&limit=51&format=text'),
  get('/v1/search', '/v1/search?q=trample&limit=-1&format=markdown'),
  get('/v1/search', '/v1/search'),
  get('/v1/search', `/v1/search?q=${long}`),
  // citations
  post({ text: 'See rule 706.10 and rule 999.9.', asOf: '2021-06-18' }),
  post({ numbers: ['500.1', '702.19b'], asOf: '2009-05-01', to: '2021-07-23' }),
  post({ numbers: ['706.10'], asOf: '2021-06-18', format: 'markdown' }),
  post({ text: 'rule 706.10 ("Copies of Objects")', asOf: 'latest' }),
  post({ numbers: ['abc'], asOf: '2021-06-18', format: 'markdown' }),
  post({ text: 'rule 706.10' }),
  post({ text: 'rule 706.10', numbers: ['706.10'], asOf: '2021-06-18' }),
  post({ numbers: 'abc', asOf: '2021-06-18' }),
  post('{"text": '),
  post('[1, 2]'),
  post({ text: 'x'.repeat(1_100_000), asOf: '2021-06-18' }),
  // editions
  get('/v1/editions/{edition}.json', '/v1/editions/2021-07-23.json'),
  get('/v1/editions/{edition}.json', '/v1/editions/latest.json'),
  get('/v1/editions/{edition}.json', '/v1/editions/someday.json'),
  get('/v1/editions/{edition}.json', '/v1/editions/1900-01-01.json'),
  // published files: as published and normalized, by date, latest and a date in force; unknown editions
  ...['2021-07-23', 'latest', '2009-07-11', '2021-07-01'].flatMap((e) => [
    get('/v1/files/{edition}.txt', `/v1/files/${e}.txt`),
    get('/v1/files/{edition}.utf8.txt', `/v1/files/${e}.utf8.txt`),
  ]),
  get('/v1/files/{edition}.txt', '/v1/files/1900-01-01.txt'),
  get('/v1/files/{edition}.txt', '/v1/files/someday.txt'),
  get('/v1/files/{edition}.utf8.txt', '/v1/files/XYZ.utf8.txt'),
];

/** Sends one call and checks its response against the document. */
async function check(c: Call): Promise<void> {
  const method = c.body === undefined ? 'get' : 'post';
  const res = await fetch(shared.l.url + c.path, c.body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: c.body });
  const what = `${method.toUpperCase()} ${c.path.slice(0, 80)}${c.body ? ` ${c.body.slice(0, 60)}` : ''}`;
  const op = doc.paths[c.route]?.[method];
  assert.ok(op, `${what}: ${method} ${c.route} documented`);
  const status = String(res.status);
  assert.ok(op.responses[status], `${what}: status ${status} documented`);
  const type = res.headers.get('content-type')!.split(';')[0]!;
  assert.ok(op.responses[status].content?.[type], `${what}: ${type} documented for ${status}`);
  const text = await res.text();
  const validate = ajv.getSchema(`openapi#/${pointer('paths', c.route, method, 'responses', status, 'content', type, 'schema')}`)!;
  const value: unknown = type === 'application/json' ? JSON.parse(text) : text;
  assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors)}`);
  met.add(`${c.route} ${method} ${status} ${type}`);
}

test('every call to a documented route answers a documented status and media type with a body the document allows', async () => {
  await loadDoc();
  for (const c of CALLS) await check(c);
});

test('every documented status and media type is met by some call (none is documented and never answered)', () => {
  const documented: string[] = [];
  for (const [route, ops] of Object.entries(doc.paths as Record<string, J>)) {
    for (const [method, op] of Object.entries(ops as Record<string, J>)) {
      for (const [status, r] of Object.entries(op.responses as Record<string, J>)) {
        for (const type of Object.keys(r.content ?? {})) documented.push(`${route} ${method} ${status} ${type}`);
      }
    }
  }
  assert.ok(met.size > 0, 'the calls ran first');
  assert.deepEqual(
    documented.filter((d) => !met.has(d)),
    [],
  );
});

test('the document lints clean with Redocly’s recommended rules', async () => {
  await loadDoc();
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  assert.deepEqual(
    problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`),
    [],
  );
});
