import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { IMMUTABLE } from '../../src/http/ResponseCache.js';
import { fixtureServer } from '../server/helpers.js';

// Issue 23, the judge's paths, over HTTP: from an old number, a release or a section to the right page.
let srv: Awaited<ReturnType<typeof fixtureServer>>;
before(async () => {
  srv = await fixtureServer({}, true);
});
after(() => srv.close());

async function page(path: string) {
  const res = await fetch(`${srv.url}${path}`, { redirect: 'manual' });
  return { res, body: await res.text() };
}

const hrefs = (body: string) => [...body.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
const text = (body: string) => body.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ');

test('an old number leads forward: the rule page, search and an older edition say where the rule is now', async () => {
  const moved = await page('/cr/latest/706.10');
  assert.equal(moved.res.status, 404);
  assert.match(text(moved.body), /706\.10 \(until 2021-06-18\) is now 707\.10/);
  assert.ok(hrefs(moved.body).includes('/cr/latest/707.10'));
  // the lineage's answer comes before any string neighbour
  assert.ok(moved.body.indexOf('is now') < moved.body.indexOf('Other numbers near it'));
  const search = await page('/search?q=706.10&edition=latest');
  assert.match(text(search.body), /There is no rule 706\.10 in this edition\. ?706\.10 \(until 2021-06-18\) is now 707\.10/);
  assert.ok(text(search.body).indexOf('is now 707.10') < text(search.body).indexOf('result'));
  const older = await page('/cr/2021-06-18/706.10');
  assert.equal(older.res.status, 200);
  assert.match(text(older.body), /In the newest edition \(2021-07-23\) this rule is 707\.10/);
  const newest = await page('/cr/2021-07-23/707.10');
  assert.doesNotMatch(newest.body, /In the newest edition/);
});

test('every diff one click away: the index of releases, previous/next, pickers keeping the filters, from an edition and a history step', async () => {
  const index = await page('/diff');
  assert.equal(index.res.status, 200);
  const links = hrefs(index.body);
  assert.ok(links.includes('/diff/2021-06-18/2021-07-23') && links.includes('/diff/2008-10-01/2021-06-18'), links.join(' '));
  assert.match(index.body, /2021-07-23<\/a><\/th><td>[^<]*<\/td><td>2021-06-18<\/td>(<td class="n">\d+<\/td>){4}/);
  const latest = await page('/diff/2021-06-18/2021-07-23?section=706');
  assert.ok(hrefs(latest.body).includes('/diff/2008-10-01/2021-06-18?section=706'), 'previous release, same section');
  assert.match(latest.body, /<select id="pick-from" name="from">/);
  assert.match(latest.body, /<input type="hidden" name="section" value="706">/);
  const picked = await page('/diff?from=2008-10-01&to=2021-07-23&section=706&view=side');
  assert.equal(picked.res.headers.get('location'), '/diff/2008-10-01/2021-07-23?section=706&view=side');
  const edition = await page('/cr/2021-07-23');
  assert.ok(hrefs(edition.body).includes('/diff/2021-06-18/2021-07-23'));
  const history = await page('/history/707.10?edition=2021-07-23');
  assert.ok(hrefs(history.body).includes('/diff/2021-06-18/2021-07-23?section=707'), hrefs(history.body).join(' '));
});

test('a section-scoped diff page is scoped in its counts and renumbering too, and names its scope', async () => {
  const count = (body: string, what: string) => Number(new RegExp(`<dt>${what}</dt><dd>(?:<a [^>]*>)?(\\d+)`).exec(body)![1]);
  const all = await page('/diff/2021-06-18/2021-07-23');
  const scoped = await page('/diff/2021-06-18/2021-07-23?section=702');
  assert.ok(count(scoped.body, 'Changed rules') < count(all.body, 'Changed rules'), 'counts of the section');
  assert.equal(count(scoped.body, 'Renumbered'), 0);
  assert.doesNotMatch(scoped.body, /section 706 is now 707/);
  assert.match(text(scoped.body), /Counts, renumbering, examples and glossary entries of section 702 only/);
  const ids = [...all.body.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(ids.length, new Set(ids).size);
});

test("a diff's counts open the changes of their kind alone: the added rules of a release in one click", async () => {
  const all = await page('/diff/2021-06-18/2021-07-23?view=side');
  const added = /<dt>Added<\/dt><dd><a href="([^"]+)"[^>]*>(\d+)<\/a>/.exec(all.body);
  assert.ok(added, 'the Added count is a link');
  const href = added[1]!.replaceAll('&amp;', '&');
  assert.equal(href, '/diff/2021-06-18/2021-07-23?kind=added&view=side');
  const only = await page(href);
  const kinds = [...only.body.matchAll(/<article class="change" data-section="[^"]*" data-kinds="([^"]*)"/g)].map((m) => m[1]!);
  assert.equal(kinds.length, Number(added[2]));
  assert.ok(
    kinds.every((k) => k.split(' ').includes('added')),
    kinds.join(' | '),
  );
  // on that page the Added count is no link to itself; a kind with no change is never a link
  assert.doesNotMatch(only.body, /<dt>Added<\/dt><dd><a /);
  assert.match(all.body, /<dt>Removed<\/dt><dd>0<\/dd>/);
  // the section and the view are kept
  const scoped = await page('/diff/2021-06-18/2021-07-23?section=707');
  assert.ok(hrefs(scoped.body).includes('/diff/2021-06-18/2021-07-23?section=707&kind=renumbered'), hrefs(scoped.body).join(' '));
});

test('stale data said plainly: every page names the newest known edition that is not stored, and crkb update', async () => {
  const known = [
    { effectiveDate: '2021-07-23', setCode: 'AFR', setName: null },
    { effectiveDate: '2022-01-01', setCode: null, setName: null },
    { effectiveDate: '2022-02-18', setCode: 'NEO', setName: 'Kamigawa: Neon Dynasty' },
  ];
  const behind = await fixtureServer({ knownEditions: known }, true);
  try {
    for (const path of ['/', '/cr/2021-06-18/702.19', '/diff', '/search?q=trample']) {
      const res = await fetch(`${behind.url}${path}`);
      const body = text(await res.text());
      assert.match(
        body,
        /The newest edition known is 2022-02-18 — Kamigawa: Neon Dynasty \(NEO\); it is not stored here \(2 editions after 2021-07-23[^)]*\)\. Run crkb update/,
        path,
      );
      assert.notEqual(res.headers.get('cache-control'), IMMUTABLE, path);
    }
    const asked = text(await (await fetch(`${behind.url}/cr/2022-01-20`)).text());
    assert.match(asked, /The edition in force on the date asked for was 2022-01-01, which is not stored/);
  } finally {
    await behind.close();
  }
  // up to date (the default server knows no newer edition): no notice
  assert.doesNotMatch((await page('/')).body, /Newer rules exist/);
});

test('search counts its hits exactly: the pages together list as many as the count says', async () => {
  const first = await page('/search?q=the&edition=2021-07-23');
  const m = /1–25 of (\d+) results/.exec(text(first.body));
  assert.ok(m, text(first.body).slice(0, 300));
  assert.doesNotMatch(first.body, /of more results/);
  const total = Number(m[1]);
  let listed = 0;
  for (let offset = 0; offset < total + 25; offset += 25) {
    const p = await page(`/search?q=the&edition=2021-07-23&offset=${offset}`);
    listed += [...p.body.matchAll(/<li><a href=/g)].length;
  }
  assert.equal(listed, total);
});

test('the search box reads an edition in the query as the lookup does: "502.9b (2008)", "trample in 2008-10-01"', async () => {
  const rule = await page('/search?q=502.9b+(2008)&edition=latest');
  assert.match(text(rule.body), /Searching the 2008-10-01 edition, named in the query\./);
  assert.ok(hrefs(rule.body).includes('/cr/2008-10-01/502.9#502.9b'), hrefs(rule.body).join(' '));
  assert.doesNotMatch(text(rule.body), /There is no rule/);
  const words = await page('/search?q=trample+in+2008-10-01&edition=latest');
  const links = hrefs(words.body).filter((h) => /^\/cr\/[^/]+\/\d/.test(h));
  assert.ok(links.length > 0 && links.every((h) => h.startsWith('/cr/2008-10-01/')), links.join(' '));
  // the live fragment reads it the same way
  const live = await page('/search?q=trample+in+2008-10-01&edition=latest&live=1');
  assert.deepEqual(
    hrefs(live.body).filter((h) => /^\/cr\/[^/]+\/\d/.test(h)),
    links,
  );
});
