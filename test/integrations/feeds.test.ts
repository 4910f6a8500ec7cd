import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fixtureDbWithLineage } from '../server/fixtures.js';
import { fixtureServer, type J } from '../server/helpers.js';

let url = '';
let stop: () => Promise<void>;
before(async () => {
  const srv = await fixtureServer({ publicUrl: 'https://crkb.test' }, fixtureDbWithLineage());
  url = srv.url;
  stop = srv.close;
});
after(() => stop());

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an Atom document, checking it is well-formed XML and has what RFC 4287 requires of a feed and its entries. */
async function atom(path: string): Promise<{ feed: J; res: Response }> {
  const res = await fetch(url + path);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^application\/atom\+xml/);
  const xml = await res.text();
  assert.equal(XMLValidator.validate(xml), true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'entry' || name === 'link' }).parse(xml) as J;
  const feed = doc.feed;
  assert.equal(feed['@xmlns'], 'http://www.w3.org/2005/Atom');
  for (const el of [feed, ...(feed.entry ?? [])]) {
    assert.ok(typeof el.id === 'string' && /^https?:\/\//.test(el.id), `id ${el.id}`);
    assert.ok(String(el.title).length > 0);
    assert.match(el.updated, RFC3339);
  }
  assert.ok(feed.author.name);
  assert.ok(feed.link.some((l: J) => l['@rel'] === 'self'));
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
