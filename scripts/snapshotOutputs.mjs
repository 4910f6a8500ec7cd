#!/usr/bin/env node
/* global fetch */
// Writes what every face answers to a fixed list of requests (CLI, REST, GraphQL, web pages, feeds)
// into a folder, one file per request, so two builds can be compared with `diff -r`:
//
//   node scripts/snapshotOutputs.mjs --db data/crkb.db --out /tmp/before      (on the old build)
//   node scripts/snapshotOutputs.mjs --db data/crkb.db --out /tmp/after       (on the new one)
//   diff -r /tmp/before /tmp/after
//
// Reads the built code in dist/ of the checkout it is run from (`npm run build` first).
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { db: { type: 'string', default: 'data/crkb.db' }, out: { type: 'string' } } });
if (!values.out) {
  console.error('usage: node scripts/snapshotOutputs.mjs --db FILE --out DIR');
  process.exit(1);
}
const db = resolve(values.db);
const out = resolve(values.out);
mkdirSync(out, { recursive: true });
const root = resolve(new URL('..', import.meta.url).pathname);
const slug = (s) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 150);
let n = 0;
const save = (face, name, body) => {
  writeFileSync(join(out, `${face}--${slug(name)}`), body);
  n++;
};

const cli = [
  ['rule', '702.19', '--examples'],
  ['rule', '704.5'],
  ['rule', '601.2a-h'],
  ['history', '707.10'],
  ['history', '702.19b'],
  ['history', '613'],
  ['diff', '2021-06-18', '2021-07-23', '--markdown'],
  ['diff', '2021-06-18', '2021-07-23', '--json'],
  ['diff', '2009-05-01', '2009-10-01', '--renumbering'],
  ['refs', '707.10', '--incoming'],
  ['refs', '--dangling', '--edition', '2021-07-23'],
  ['search', 'combat damage', '--edition', '2009-10-01'],
  ['search', 'trample'],
  ['editions'],
  // every diff line, history step and search hit format, and the CLI's errors
  ['diff', '2021-06-18', '2021-07-23'],
  ['diff', '2021-06-18', '2021-07-23', '--section', '702'],
  ['diff', '2021-06-18', '2021-07-23', '--section', '70x'],
  ['history', '110.6'],
  ['history', '999.9'],
  ['history', '702.19B'],
  ['history', '--term', 'dies'],
  ['rule', 'abc'],
  ['rule', '999.9'],
  ['rule', 'CR 702.19b'],
  ['search', 'trample', '--limit', '5', '--json'],
  ['search', 'zzzzqqq'],
  ['cite', '@citations', '--as-of', '2021-06-18'],
  ['cite', '@citations', '--as-of', '2021-06-18', '--json'],
];
const citeDir = mkdtempSync(join(tmpdir(), 'crkb-snapshot-'));
const citeFile = join(citeDir, 'notes.md');
writeFileSync(citeFile, 'A copy of a spell goes on the stack (rule 706.10). See 702.19 (Trample), rule 110.6 and 999.9.\n');
for (const argv0 of cli) {
  const argv = argv0.map((a) => (a === '@citations' ? citeFile : a));
  const r = spawnSync(process.execPath, [join(root, 'bin/crkb.js'), ...argv, '--db', db], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  save('cli', argv0.join(' '), `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
}

rmSync(citeDir, { recursive: true, force: true });

process.env.NODE_ENV ??= 'production';
const { buildServer } = await import(join(root, 'dist/src/server/buildServer.js'));
const { listen } = await import(join(root, 'dist/src/server/listen.js'));
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const discordPublicKey = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
const built = await buildServer({ dbFile: db, publicUrl: 'https://crkb.example', responseCache: false, heavyThreads: 0, discordPublicKey });
const l = await listen(built.app, 0);
const lookups = [
  'trample',
  'CR 702.19b',
  '702.19B',
  'cr702.19b',
  '!cr 702.19b',
  '702,19b',
  '702.19b)',
  'define dies',
  'what is a token',
  'sba',
  'etb',
  'apnap',
  'cda',
  'p/t',
  'cmc',
  '702.19b ex 2',
  '601.2a-h',
  'legend rule',
  'protection from red',
  'how do layers work',
  'deathtouch trample',
  'comabt damage',
  'first strike',
  'ward',
  'mulligan',
  'layers',
  '706.10',
  '999.9',
  '__proto__',
  'constructor',
];
const urls = [];
for (const q of lookups) {
  for (const f of ['json', 'text', 'markdown']) urls.push(`/v1/lookup?q=${encodeURIComponent(q)}&format=${f}`);
}
urls.push(
  '/v1/lookup?q=trample&edition=2010-01-01&format=text',
  '/v1/lookup?q=601.2a-h&examples=1',
  '/v1/rules/702.19b?edition=2010-01-01',
  '/v1/rules/707.10',
  '/v1/search?q=combat%20damage&format=text',
  '/v1/search?q=trample&format=json&limit=20',
  '/v1/search?q=trample&format=markdown&edition=2009-10-01',
  '/v1/editions/2021-07-23.json',
  '/',
  '/cr/latest',
  '/cr/2021-07-23',
  '/cr/latest/702',
  '/cr/latest/702.19',
  '/cr/latest/613',
  '/cr/latest/glossary',
  '/cr?number=702.19b',
  '/cr/latest/706.10',
  '/search?q=trample&edition=latest',
  '/search?q=comabt+damage',
  '/diff',
  '/diff/2021-06-18/2021-07-23',
  '/diff/2021-06-18/2021-07-23?view=side&section=702',
  '/diff/2009-05-01/2009-10-01',
  '/diff/2010-07-16/latest?section=613',
  '/history/702.19b?edition=latest',
  '/history/707.10',
  '/history/613',
  '/feed.atom',
  '/feed/702.19b.atom',
  '/openapi.json',
  '/docs/api',
  // every surface's errors
  '/feed/110.6.atom',
  '/feed/abc.atom',
  '/feed/999.9.atom',
  '/v1/rules/abc',
  '/v1/rules/abc?format=text',
  '/v1/rules/CR%20702.19b',
  '/v1/rules/702.91?edition=2021-07-23',
  '/v1/rules/702.91?format=text',
  '/v1/rules/702.91?format=markdown',
  '/v1/rules/%',
  '/v1/lookup',
  '/v1/lookup?q=trample&format=xml',
  '/v1/lookup?q=a&q=b',
  '/v1/lookup?q=trample&edition=someday&format=markdown',
  '/v1/search?q=trample&limit=99',
  '/v1/search?q=zzzzqqq&format=text',
  '/v1/search?q=zzzzqqq&format=markdown',
  '/v1/search?q=first%20strike&format=markdown&limit=50',
  '/v1/editions/someday.json',
  '/v1/nothing',
  '/nothing',
  '/cr/latest/999.9',
  '/cr/latest/abc',
  '/cr?number=abc',
  '/history/abc',
  '/history/110.6',
  '/history/110.6?edition=2015-01-23',
  '/diff/2021-06-18/2021-07-23?section=70x',
  '/search?q=trample&offset=-1',
);
const queries = [
  '{ rule(number: "700.2g", edition: "2021-07-01") { number text edition { effectiveDate } lineageId references { targetNumber target { number text } } referencedBy { number } } }',
  '{ diff(from: "2021-06-18", to: "2021-07-23", section: "700") { counts { added removed renumbered references substantive } nodes { before { number } after { number } renumbered textChange segments { op text } } } }',
  '{ history(number: "707.10") { lineageId steps { edition { effectiveDate } number renumbered textChange } } }',
  '{ search(query: "combat damage", first: 10) { nodes { kind snippet rule { number } glossary { term } } pageInfo { hasNextPage endCursor } } }',
  '{ lookup(q: "define dies") { kind matched rules { number text } glossary { term definition } } }',
  '{ editions { effectiveDate setCode setName official ruleCount } }',
  '{ citations(text: "See rule 706.10 and 702.19 (Trample).", asOf: "2021-06-18") { citations { cited status now { number } textChange } markdown } }',
  '{ glossaryTerms(edition: "2021-07-23") { term } }',
  '{ rule(number: "abc") { number } }',
  '{ rule(number: "999.9") { number } }',
  '{ rule(number: "702.19B.") { number } }',
  '{ history(number: "7x") { lineageId } }',
  '{ diff(from: "2021-06-18", to: "2021-07-23", section: "70x") { counts { added } } }',
  '{ rules(edition: "2021-07-23", section: "702.19", first: 3) { nodes { number } } }',
  '{ citations(numbers: ["abc"], asOf: "2021-06-18") { markdown } }',
];
for (const u of urls) {
  const r = await fetch(l.url + u);
  save('http', u, `${r.status} ${r.headers.get('content-type')}\n${r.headers.get('cache-control')}\n\n${await r.text()}`);
}
for (const q of queries) {
  const r = await fetch(l.url + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) });
  save('graphql', q, `${r.status}\n${JSON.stringify(await r.json(), null, 1)}`);
}
const cite = await fetch(l.url + '/v1/citations', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ text: 'A copy of a spell goes on the stack (rule 706.10). See 702.19 (Trample).', asOf: '2021-06-18' }),
});
save('http', 'POST /v1/citations', `${cite.status}\n${await cite.text()}`);
const posts = [
  ['/v1/citations', '{"text": "rule 706.10", "asOf": "2021-06-18", "format": "markdown"}'],
  ['/v1/citations', '{"numbers": ["706.10", "abc"], "asOf": "2021-06-18"}'],
  ['/v1/citations', '{"numbers": ["706.10"], "asOf": "2021-06-18", "format": "xml"}'],
  ['/v1/citations', '{"numbers": ["706.10"]}'],
  ['/v1/citations', '{"text": '],
  ['/v1/citations', '[1, 2]'],
  ['/graphql', '{"query": '],
  ['/discord/interactions', '{"type": 1}'],
];
for (const [path, body] of posts) {
  const r = await fetch(l.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  save('http', `POST ${path} ${body}`, `${r.status} ${r.headers.get('content-type')}\n${await r.text()}`);
}
// Discord: signed interactions over HTTP (the route's errors), then every command's answers
const discord = async (body) => {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.from(timestamp + raw), privateKey).toString('hex');
  const r = await fetch(l.url + '/discord/interactions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature-timestamp': timestamp, 'x-signature-ed25519': signature },
    body: raw,
  });
  return `${r.status} ${r.headers.get('content-type')}\n${await r.text()}`;
};
save('discord', 'malformed body', await discord('{"type": '));
save('discord', 'no type', await discord('{"data": {}}'));
const commands = [
  ['cr', { number: '702.19b' }],
  ['cr', { number: '707.10' }],
  ['cr', { number: '999.9' }],
  ['cr', { number: 'trample', edition: '2010-01-01' }],
  ['define', { term: 'dies' }],
  ['define', { term: 'zzzzqqq' }],
  ['search', { query: 'combat damage' }],
  ['search', { query: 'first strike', edition: '2009-10-01' }],
  ['search', { query: 'zzzzqqq' }],
  ['diff', { from: '2021-06-18', to: '2021-07-23' }],
  ['diff', { from: '2021-06-18', to: '2021-07-23', section: '702' }],
  ['diff', { from: '2009-05-01', to: '2009-10-01', section: '613' }],
  ['diff', { from: '2021-06-18', to: '2021-07-23', section: '70x' }],
  ['history', { number: '702.19b' }],
  ['history', { number: '110.6' }],
  ['history', { number: '613' }],
  ['history', { number: 'abc' }],
  ['history', { number: '999.9' }],
  ['nothing', {}],
];
for (const [name, options] of commands) {
  const body = { type: 2, data: { name, options: Object.entries(options).map(([k, value]) => ({ name: k, value })) } };
  save('discord', `${name} ${JSON.stringify(options)}`, await discord(body));
}
save('discord', 'autocomplete number', await discord({ type: 4, data: { name: 'cr', options: [{ name: 'number', value: '702.1', focused: true }] } }));
// MCP: every tool, answers and errors, through the SDK's client over an in-memory transport
const { createMcpServer } = await import(join(root, 'dist/src/integrations/mcp/createMcpServer.js'));
const { Client } = await import(join(root, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js'));
const { InMemoryTransport } = await import(join(root, 'node_modules/@modelcontextprotocol/sdk/dist/esm/inMemory.js'));
const mcp = createMcpServer(built.kb());
const [ct, st] = InMemoryTransport.createLinkedPair();
await mcp.connect(st);
const client = new Client({ name: 'snapshot', version: '1.0.0' });
await client.connect(ct);
const tools = [
  ['lookup_rule', { query: '702.19b', edition: '2021-06-18', examples: true }],
  ['lookup_rule', { query: '999.9' }],
  ['search_rules', { query: 'combat damage', limit: 5 }],
  ['search_rules', { query: 'zzzzqqq' }],
  ['define_term', { term: 'dies' }],
  ['define_term', { term: 'zzzzqqq' }],
  ['diff_editions', { from: '2021-06-18', to: '2021-07-23', limit: 30 }],
  ['diff_editions', { from: '2021-06-18', to: '2021-07-23', section: '702' }],
  ['diff_editions', { from: '2021-06-18', to: '2021-07-23', section: '70x' }],
  ['rule_history', { number: '702.19b' }],
  ['rule_history', { number: '110.6' }],
  ['rule_history', { number: 'abc' }],
  ['rule_history', { number: '999.9' }],
  ['check_citations', { text: 'See rule 706.10 and 702.19 (Trample).', asOf: '2021-06-18' }],
  ['check_citations', { numbers: ['abc'], asOf: '2021-06-18' }],
];
for (const [name, args] of tools) {
  const r = await client.callTool({ name, arguments: args });
  save('mcp', `${name} ${JSON.stringify(args)}`, JSON.stringify(r, null, 1));
}
await client.close();
await l.close();
await built.close();
console.log(`${n} answers written to ${out}`);
