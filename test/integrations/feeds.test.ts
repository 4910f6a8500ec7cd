import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fixtureDbWithLineage } from '../server/fixtures.js';
import { fixtureServer, type J } from '../server/helpers.js';

let url = '';
let stop: () => Promise<void>;
/** The same database served under another public URL. */
let moved = '';
let stopMoved: () => Promise<void>;
before(async () => {
  const srv = await fixtureServer({ publicUrl: 'https://crkb.test' }, fixtureDbWithLineage());
  url = srv.url;
  stop = srv.close;
  const other = await fixtureServer({ publicUrl: 'https://rules.example.org/crkb' }, fixtureDbWithLineage());
  moved = other.url;
  stopMoved = other.close;
});
after(async () => {
  await stop();
  await stopMoved();
});

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an Atom document, checking it is well-formed XML and has what RFC 4287 requires of a feed and its entries. */
async function atom(path: string, server = url): Promise<{ feed: J; res: Response }> {
  const res = await fetch(server + path);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^application\/atom\+xml/);
  const xml = await res.text();
  assert.equal(XMLValidator.validate(xml), true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'entry' || name === 'link' }).parse(xml) as J;
  const feed = doc.feed;
  assert.equal(feed['@xmlns'], 'http://www.w3.org/2005/Atom');
  for (const el of [feed, ...(feed.entry ?? [])]) {
    assert.ok(typeof el.id === 'string' && /^tag:crkb,2026:\S+$/.test(el.id), `id ${el.id}`);
    assert.ok(String(el.title).length > 0);
    assert.match(el.updated, RFC3339);
  }
  assert.ok(feed.author.name);
  assert.ok(feed.link.some((l: J) => l['@rel'] === 'self'));
  if (server === url)
    for (const e of feed.entry ?? []) assert.ok(e.link.some((l: J) => l['@rel'] === 'alternate' && /^https:\/\/crkb\.test\//.test(l['@href'])));
  return { feed, res };
}

test('/feed.atom: one entry per edition, newest first, with the release notes summary and a link to the diff page', async () => {
  const { feed, res } = await atom('/feed.atom');
  const entries = feed.entry as J[];
  assert.deepEqual(
    entries.map((e) => e.updated.slice(0, 10)),
    ['2021-07-23', '2021-06-18', '2008-10-01'],
  );
  assert.equal(entries[0].link[0]['@href'], 'https://crkb.test/diff/2021-06-18/2021-07-23');
  assert.match(entries[0].summary, /^Since 2021-06-18: \d+ rules added, 0 removed, \d+ renumbered, \d+ with new wording, 1 with updated references\./);
  assert.equal(feed.updated, '2021-07-23T00:00:00Z');
  const etag = res.headers.get('etag')!;
  const again = await fetch(`${url}/feed.atom`, { headers: { 'if-none-match': etag }, cache: 'no-cache' } as RequestInit);
  assert.equal(again.status, 304);
});

test('/feed/{number}.atom: the changes to one rule, newest first', async () => {
  const { feed } = await atom('/feed/707.10.atom');
  const titles = (feed.entry as J[]).map((e) => e.title);
  assert.deepEqual(titles, ['707.10. (2021-07-23): renumbered from 706.10', '706.10. (2021-06-18): first appears']);
  assert.equal(feed.entry[0].link[0]['@href'], 'https://crkb.test/cr/2021-07-23/707.10');
  const missing = await fetch(`${url}/feed/702.99.atom`);
  assert.equal(missing.status, 404);
  assert.match(((await missing.json()) as J).error.message, /no rule 702\.99/);
  assert.equal((await fetch(`${url}/feed/banana.atom`)).status, 400);
});

test('feed and entry ids do not depend on the public URL: moving the site keeps every id, only the links change', async () => {
  for (const path of ['/feed.atom', '/feed/707.10.atom']) {
    const here = (await atom(path)).feed;
    const there = (await atom(path, moved)).feed;
    const ids = (f: J) => [f.id, ...(f.entry as J[]).map((e) => e.id)];
    assert.deepEqual(ids(there), ids(here), path);
    assert.ok(
      (there.entry as J[]).every((e) => e.link[0]['@href'].startsWith('https://rules.example.org/crkb/')),
      path,
    );
  }
});

test('a rule feed follows the rule along its lineage: the old number in its edition is the same feed, and the self link pins the number to an edition', async () => {
  const now = (await atom('/feed/707.10.atom')).feed;
  const then = (await atom('/feed/706.10.atom?edition=2021-06-18')).feed;
  assert.equal(then.id, now.id);
  assert.equal(now.id, 'tag:crkb,2026:rule/2021-06-18/706.10', 'named by the lineage’s first version');
  assert.deepEqual(
    (then.entry as J[]).map((e) => e.id),
    (now.entry as J[]).map((e) => e.id),
  );
  assert.equal(then.title, 'Comprehensive Rules 707.10: changes');
  const self = (f: J) => (f.link as J[]).find((l) => l['@rel'] === 'self')['@href'];
  assert.equal(self(now), 'https://crkb.test/feed/707.10.atom?edition=2021-07-23');
  assert.equal(self(then), 'https://crkb.test/feed/707.10.atom?edition=2021-07-23');
  const bad = await fetch(`${url}/feed/707.10.atom?edition=someday`);
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as J).error.argument, 'edition');
});
