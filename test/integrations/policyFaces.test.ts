import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { versionId } from '../../src/query/entityIds.js';
import { buildPolicyDb } from '../support/policyFixture.js';
import { fixtureServer, type J } from '../server/helpers.js';

// The MCP tools and the Atom feeds of the MTR and IPG, over a database ingested from written IPG, MTR and CR files.
let dir = '';
let client: Client;
let url = '';
let stop: () => Promise<void>;
before(async () => {
  const built = await buildPolicyDb();
  dir = built.dir;
  client = new Client({ name: 'crkb-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/crkb.js', 'mcp', '--db', built.db], stderr: 'inherit' }));
  const srv = await fixtureServer({ publicUrl: 'https://crkb.test' }, openReadOnlyDb(built.db));
  url = srv.url;
  stop = srv.close;
});
after(async () => {
  await client.close();
  await stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text: string }>; structuredContent?: J; isError?: boolean };
  return { text: r.content[0]!.text, data: r.structuredContent, isError: r.isError === true };
};

test('MCP: lookup_rule, search_rules, diff_editions and rule_history read the IPG and MTR by family', async () => {
  const tools = (await client.listTools()).tools;
  for (const name of ['lookup_rule', 'search_rules', 'diff_editions', 'rule_history']) {
    const t = tools.find((x) => x.name === name)!;
    assert.deepEqual((t.inputSchema.properties as J).family.enum, ['cr', 'mtr', 'ipg', 'jar'], name);
  }
  const byFamily = await call('lookup_rule', { query: 'missed trigger', family: 'ipg' });
  assert.equal(byFamily.isError, false, byFamily.text);
  assert.match(byFamily.text, /^\*\*2\.1\*\* Game Play Error — Missed Trigger \\?\[Warning\\?\]/);
  assert.match(byFamily.text, /Source: Infraction Procedure Guide effective 2021-02-05/);
  assert.equal(byFamily.data.provenance[0].effectiveDate, '2021-02-05');
  assert.equal(byFamily.data.newerKnown, null);
  // the document named in the query, an older edition by date
  const named = await call('lookup_rule', { query: 'ipg 2.2', edition: '2020-12-01' });
  assert.match(named.text, /Looking at Extra Cards/);
  assert.match(named.text, /Source: Infraction Procedure Guide effective 2020-09-25/);
  const mtr = await call('lookup_rule', { query: '4.2', family: 'mtr' });
  assert.match(mtr.text, /Tournament Shortcuts/);
  assert.match(mtr.text, /Source: Magic Tournament Rules effective 2021-07-23/);
  // the CR stays the default
  assert.match((await call('lookup_rule', { query: '704.5z' })).text, /Source: Comprehensive Rules effective 2026-06-19/);

  const s = await call('search_rules', { query: 'shortcut', family: 'mtr' });
  assert.deepEqual(
    s.data.hits.map((h: J) => h.number),
    ['4.2'],
  );
  const d = await call('diff_editions', { family: 'ipg', from: '2020-09-25', to: 'latest' });
  const renumbered = d.data.changes.find((c: J) => c.after === '2.3');
  assert.equal(renumbered.before, '2.2');
  assert.equal(renumbered.renumbered, true);
  assert.equal(d.data.changes.find((c: J) => c.after === '2.2').before, null);
  assert.equal(d.data.changes.find((c: J) => c.after === '2.1').textChange, 'substantive');
  const h = await call('rule_history', { family: 'ipg', number: '2.3' });
  assert.deepEqual(
    h.data.steps.map((x: J) => [x.date, x.number]),
    [
      ['2020-09-25', '2.2'],
      ['2021-02-05', '2.3'],
    ],
  );
  const missing = await call('rule_history', { family: 'mtr', number: '9.9' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /no MTR 9\.9 in the 2021-07-23 edition/);
  const bad = await call('diff_editions', { family: 'ipg', from: '2019-01-01', to: 'latest' });
  assert.equal(bad.isError, true);
});

async function atom(path: string): Promise<J> {
  const res = await fetch(url + path);
  assert.equal(res.status, 200, path);
  assert.match(res.headers.get('content-type')!, /^application\/atom\+xml/);
  const xml = await res.text();
  assert.equal(XMLValidator.validate(xml), true);
  return (new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (n) => n === 'entry' || n === 'link' }).parse(xml) as J).feed;
}

test('Atom feeds per document: /feed/ipg.atom, /feed/mtr.atom and a section followed across renumbering', async () => {
  const ipg = await atom('/feed/ipg.atom');
  assert.equal(ipg.id, 'tag:crkb,2026:feed/ipg/editions');
  assert.deepEqual(
    ipg.entry.map((e: J) => e.id),
    ['tag:crkb,2026:ipg/diff/2020-09-25/2021-02-05', 'tag:crkb,2026:ipg/2020-09-25'],
  );
  assert.match(ipg.entry[0].summary, /^Since 2020-09-25: 1 section added, 0 removed, 1 renumbered, 1 with new wording/);
  assert.equal(ipg.entry[0].link[0]['@href'], 'https://crkb.test/ipg/diff/2020-09-25/2021-02-05');
  const mtr = await atom('/feed/mtr.atom');
  assert.deepEqual(
    mtr.entry.map((e: J) => e.id),
    ['tag:crkb,2026:mtr/2021-07-23'],
  );
  assert.match(mtr.title, /Magic Tournament Rules/);
  // the CR's feed lists the CR only, its ids unchanged
  const cr = await atom('/feed.atom');
  assert.deepEqual(
    cr.entry.map((e: J) => e.id),
    ['tag:crkb,2026:cr/2026-06-19'],
  );
  // a section's feed: the same id whichever number it is asked by
  const now = await atom('/feed/ipg/2.3.atom');
  const then = await atom('/feed/ipg/2.2.atom?edition=2020-09-25');
  assert.equal(now.id, 'tag:crkb,2026:ipg/section/2020-09-25/2.2');
  assert.equal(then.id, now.id);
  assert.deepEqual(
    now.entry.map((e: J) => e.id),
    ['tag:crkb,2026:ipg/2021-02-05/2.3', 'tag:crkb,2026:ipg/2020-09-25/2.2'],
  );
  assert.equal((await fetch(`${url}/feed/ipg/9.9.atom`)).status, 404);
  assert.equal((await fetch(`${url}/feed/mtr/nonsense.atom`)).status, 400);
});

const gql = async (query: string): Promise<J> => {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const body = (await res.json()) as J;
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data;
};

test('references between the documents: out and in through GraphQL, linked on the web pages', async () => {
  const d = await gql(
    `{ rule(number: "2.1", family: "ipg") { references { family targetNumber dangling target { number edition { family effectiveDate } } } } }`,
  );
  assert.deepEqual(
    d.rule.references.map((r: J) => [r.family, r.targetNumber, r.dangling, r.target?.edition.family]),
    [
      ['mtr', '4.2', false, 'mtr'],
      ['cr', '704.5', false, 'cr'],
    ],
  );
  const m = await gql(`{ rule(number: "4.2", family: "mtr") { references { family targetNumber target { number } } } }`);
  assert.deepEqual(
    m.rule.references.map((r: J) => `${r.family} ${r.targetNumber} ${r.target?.number ?? '-'}`),
    ['cr 704.5z 704.5z', 'ipg 2.1 2.1'],
  );
  // in: the IPG's 2.1 (in force when the MTR edition took effect) cites MTR 4.2; the CR's 704.5 is cited by an IPG section
  const by = await gql(`{ rule(number: "4.2", family: "mtr") { referencedBy { number edition { family effectiveDate } } } }`);
  assert.deepEqual(
    by.rule.referencedBy.map((r: J) => `${r.edition.family} ${r.edition.effectiveDate} ${r.number}`),
    ['ipg 2021-02-05 2.1'],
  );
  const cr = await gql(`{ rule(number: "704.5") { referencedBy { number edition { family } } } }`);
  assert.ok(cr.rule.referencedBy.some((r: J) => r.edition.family === 'ipg' && r.number === '2.1'));
  const page = await (await fetch(`${url}/ipg/latest/2.1`)).text();
  assert.match(page, /<a class="ref" href="\/mtr\/2021-07-23\/4\.2">MTR 4\.2<\/a>/);
  assert.match(page, /<a class="ref" href="\/cr\/2026-06-19\/704\.5">rule 704\.5<\/a>/);
  const mtrPage = await (await fetch(`${url}/mtr/latest/4.2`)).text();
  assert.match(mtrPage, /Cited by <a href="\/ipg\/2021-02-05\/2\.1">IPG 2\.1<\/a>/);
});

test('citation checks read "MTR 4.2" and "IPG 2.2 (Looking at Extra Cards)" in their own editions', async () => {
  const res = await fetch(`${url}/v1/citations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'See IPG 2.2 (Looking at Extra Cards) and MTR 4.2; IPG 9.9 is not a section.', asOf: '2020-10-01' }),
  });
  assert.equal(res.status, 200);
  const r = (await res.json()) as J;
  const by = (cited: string) => r.citations.find((c: J) => c.cited === cited);
  assert.deepEqual(
    r.citations.map((c: J) => c.cited),
    ['IPG 2.2', 'MTR 4.2', 'IPG 9.9'],
  );
  assert.deepEqual([by('IPG 2.2').family, by('IPG 2.2').status, by('IPG 2.2').now.number, by('IPG 2.2').titleMatches], ['ipg', 'moved', '2.3', true]);
  // the MTR's only edition took effect after the date written: nothing to check it against then
  assert.equal(by('MTR 4.2').status, 'unknown');
  assert.equal(by('IPG 9.9').status, 'unknown');
  // beside CR rules: each read in its own document's edition in force on the date written
  const mixed = await fetch(`${url}/v1/citations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Rule 704.5z, then section 2.1 of the Infraction Procedure Guide.', asOf: '2026-07-01' }),
  });
  const m = (await mixed.json()) as J;
  assert.deepEqual(
    m.citations.map((c: J) => [c.cited, c.family, c.status]),
    [
      ['704.5z', 'cr', 'same'],
      ['IPG 2.1', 'ipg', 'same'],
    ],
  );
  const mcp = await call('check_citations', { text: 'MTR 4.2 (Tournament Shortcuts)', asOf: '2021-08-01' });
  assert.equal(mcp.isError, false, mcp.text);
  assert.deepEqual([mcp.data.citations[0].cited, mcp.data.citations[0].status, mcp.data.citations[0].titleMatches], ['MTR 4.2', 'same', true]);
  assert.match(mcp.text, /\| MTR 4\.2 \| same \| MTR 4\.2 \|/);
});

test('history steps have global ids naming their document: one id per object across the CR, the MTR, the IPG and the JAR', async () => {
  const steps = async (family: string, number: string): Promise<J[]> =>
    (await gql(`{ rule(number: "${number}", family: "${family}") { history { id steps { id number edition { id family effectiveDate } } } } }`)).rule.history
      .steps;
  const jar = await steps('jar', '1.1');
  assert.deepEqual(
    jar.map((s: J) => s.id),
    jar.map((s: J) => `RuleVersion:jar:${s.edition.effectiveDate}:1.1`),
  );
  assert.ok(jar.every((s: J) => s.edition.id === `Edition:jar:${s.edition.effectiveDate}`));
  const all = [...jar, ...(await steps('ipg', '2.1')), ...(await steps('mtr', '4.2')), ...(await steps('cr', '704.5'))];
  assert.ok(
    all.every((s: J) => s.id.startsWith('RuleVersion:')),
    'a unit’s version is a rule version, never a glossary term’s',
  );
  assert.equal(new Set(all.map((s: J) => s.id)).size, all.length);
  // the same number on the same day in two documents: two objects, two ids
  assert.notEqual(versionId('2019-01-21', '1.1', 'mtr'), versionId('2019-01-21', '1.1', 'jar'));
});

// the JAR numbers nothing: crkb's positions (0 the introduction, 1 Common Issues, 1.1 and 1.2 its issues, 2 Serious Problems)
test('the JAR on every face: GraphQL, /v1, the web page, MCP and its Atom feeds, each saying its numbers are crkb’s', async () => {
  const g = await gql(
    `{ editions(family: "jar") { effectiveDate } rule(number: "1.1", family: "jar", edition: "2014-09-26") { number unit { title } history { steps { edition { family effectiveDate } } } } lookup(query: "jar shuffle") { rules { number } } }`,
  );
  assert.deepEqual(
    g.editions.map((e: J) => e.effectiveDate),
    ['2014-09-26', '2019-01-21'],
  );
  assert.match(g.rule.unit.title, /^A player forgets a triggered ability/);
  // each step in its own document's edition, not the CR's in force that day
  assert.deepEqual(
    g.rule.history.steps.map((x: J) => `${x.edition.family} ${x.edition.effectiveDate}`),
    ['jar 2014-09-26', 'jar 2019-01-21'],
  );
  assert.deepEqual(
    g.lookup.rules.map((r: J) => r.number),
    ['1.2'],
  );

  const v1 = await (await fetch(`${url}/v1/lookup?q=${encodeURIComponent('jar 1.2')}&format=text`)).text();
  assert.match(v1, /^1\.2 A player sees a card in a library that they shouldn’t have seen: Shuffle/);
  assert.match(v1, /\(JAR 2019-01-21; numbers by crkb, not published\)/);
  const byFamily = (await (await fetch(`${url}/v1/rules/1.2?family=jar&edition=2014-09-26`)).json()) as J;
  assert.match(byFamily.rules[0].text, /he or she/);
  // the JSON says it too, as the text's edition line does; a document that numbers its sections has no such note
  assert.match(byFamily.numbering, /^The JAR numbers nothing: these numbers are crkb’s/);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema((await (await fetch(`${url}/openapi.json`)).json()) as J, 'openapi');
  const documented = ajv.getSchema('openapi#/components/schemas/LookupResult')!;
  assert.ok(documented(byFamily), JSON.stringify(documented.errors));
  assert.equal(((await (await fetch(`${url}/v1/rules/2.1?family=ipg`)).json()) as J).numbering, undefined);

  const page = await (await fetch(`${url}/jar/2019-01-21/1.1`)).text();
  assert.match(page, /<h1><span class="num">1\.1<\/span> A player forgets a triggered ability/);
  assert.match(page, /<p class="numbering-note">The JAR numbers nothing: these numbers are crkb’s/);
  assert.match(page, /<strong>Judging at Regular REL \(JAR\)<\/strong>/);
  const toc = await (await fetch(`${url}/jar/latest`)).text();
  assert.match(toc, /<span class="num">0<\/span> Introduction<\/a>/);
  const diff = await (await fetch(`${url}/jar/diff/2014-09-26/2019-01-21`)).text();
  assert.match(diff, /2 changes: 0 added, 0 removed, 0 renumbered, 2 reworded/);
  const history = await (await fetch(`${url}/jar/history/1.1`)).text();
  assert.match(history, /History of JAR 1\.1/);

  const mcp = await call('lookup_rule', { query: 'triggered ability', family: 'jar' });
  assert.equal(mcp.isError, false, mcp.text);
  assert.match(mcp.text, /^\*\*1\.1\*\* A player forgets a triggered ability/);
  assert.match(mcp.data.numbering, /^The JAR numbers nothing/);
  const h = await call('rule_history', { family: 'jar', number: '1.1' });
  assert.deepEqual(
    h.data.steps.map((x: J) => [x.date, x.number]),
    [
      ['2014-09-26', '1.1'],
      ['2019-01-21', '1.1'],
    ],
  );

  const feed = await atom('/feed/jar.atom');
  assert.deepEqual(
    feed.entry.map((e: J) => e.id),
    ['tag:crkb,2026:jar/diff/2014-09-26/2019-01-21', 'tag:crkb,2026:jar/2014-09-26'],
  );
  assert.match(feed.subtitle, /numbers are crkb’s/);
  assert.match(feed.entry[0].summary, /^Since 2014-09-26: 0 sections added, 0 removed, 0 renumbered, 2 with new wording/);
  const unitFeed = await atom('/feed/jar/1.2.atom');
  assert.equal(unitFeed.entry.length, 2);
});
