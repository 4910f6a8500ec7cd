import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { IMMUTABLE, SHORT } from '../../src/http/ResponseCache.js';
import { fixtureServer } from '../server/helpers.js';

// The web pages over HTTP, from an in-process server over the fixture editions (2008-10-01, 2021-06-18,
// 2021-07-23) with references and lineage as ingest stores them.
let srv: Awaited<ReturnType<typeof fixtureServer>>;
before(async () => {
  srv = await fixtureServer({ publicUrl: 'https://rules.example' }, true);
});
after(() => srv.close());

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.url}${path}`, { headers, redirect: 'manual' });
  return { res, body: await res.text() };
}

const hrefs = (body: string) => [...body.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

test('home: the latest edition’s contents, an edition picker and a search box; short cache', async () => {
  const { res, body } = await page('/');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/html/);
  assert.equal(res.headers.get('cache-control'), SHORT);
  assert.match(body, /<h3>7\. Additional Rules<\/h3>/);
  assert.ok(hrefs(body).includes('/cr/latest/702'));
  for (const d of ['2008-10-01', '2021-06-18', '2021-07-23']) assert.match(body, new RegExp(`<option value="${d}"`));
  assert.match(body, /<form[^>]+action="\/search"/);
});

test('a rule page: subrules, examples, references linked in the same edition, glossary terms, prev/next, history; immutable when pinned', async () => {
  const { res, body } = await page('/cr/2021-07-23/702.19');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), IMMUTABLE);
  assert.match(body, /<h1>702\.19 Trample<\/h1>/);
  assert.match(body, /id="702\.19b"/);
  assert.match(body, /class="example"/);
  const links = hrefs(body);
  // "See rules 510.1c-d": both cited subrules, on their rule's page at their anchor, same edition
  assert.ok(links.includes('/cr/2021-07-23/510.1#510.1c'), links.join(' '));
  assert.ok(links.includes('/cr/2021-07-23/702.1'), 'previous');
  assert.ok(links.includes('/cr/2021-07-23/704.5'), 'next');
  assert.ok(links.includes('/history/702.19?edition=2021-07-23'));
  assert.ok(links.includes('/cr?number=702.19'));
  assert.match(body, /<a class="term" href="#g-trample" data-term="g-trample">/);
  assert.match(body, /<div id="g-trample">\s*<dt>Trample<\/dt>/);
  // the dangling "rule 999.9" of an example is no link
  assert.match(body, /<span class="dangling"[^>]*>[^<]*999\.9<\/span>/);
  assert.match(body, /<link rel="canonical" href="https:\/\/rules\.example\/cr\/2021-07-23\/702\.19" ?\/?>/);
  // the same page by latest: links keep "latest", the cache is short
  const latest = await page('/cr/latest/702.19');
  assert.equal(latest.res.headers.get('cache-control'), SHORT);
  assert.ok(hrefs(latest.body).includes('/cr/latest/510.1#510.1c'));
  // ETag: a second request with it is a 304
  const again = await fetch(`${srv.url}/cr/2021-07-23/702.19`, { headers: { 'if-none-match': res.headers.get('etag')! }, cache: 'no-cache' } as RequestInit);
  assert.equal(again.status, 304);
});

test('a section page and a part redirect; an unknown rule is a 404 page with suggestions; a bad edition a 400 naming it', async () => {
  const section = await page('/cr/2021-07-23/702');
  assert.equal(section.res.status, 200);
  assert.match(section.body, /<h2><a class="num" href="#702\.19">702\.19<\/a> <a class="term"[^>]*>Trample<\/a><\/h2>/);
  const part = await page('/cr/2021-07-23/7');
  assert.equal(part.res.status, 302);
  assert.equal(part.res.headers.get('location'), '/cr/2021-07-23#part-7');
  const missing = await page('/cr/2021-07-23/702.91');
  assert.equal(missing.res.status, 404);
  assert.match(missing.body, /No rule 702\.91 in the 2021-07-23 edition/);
  assert.match(missing.body, /href="\/cr\/2021-07-23\/702\.1"/);
  const bad = await page('/cr/1066-10-14/702.19');
  assert.equal(bad.res.status, 400);
  assert.match(bad.body, /\(edition\)/);
  const notNumber = await page('/cr/latest/abc');
  assert.equal(notNumber.res.status, 400);
  assert.match(notNumber.body, /is not a rule number/);
  const picker = await page('/cr?edition=2021-06-18&number=702.19b');
  assert.equal(picker.res.headers.get('location'), '/cr/2021-06-18/702.19#702.19b');
  const everywhere = await page('/cr?number=702.19');
  assert.ok(hrefs(everywhere.body).includes('/cr/2021-06-18/702.19'));
  assert.ok(!hrefs(everywhere.body).includes('/cr/2008-10-01/702.19'));
});

test('search: ranked hits with escaped, marked snippets; the live fragment reads the last word as a prefix', async () => {
  const { res, body } = await page('/search?q=trample&edition=2021-07-23');
  assert.equal(res.status, 200);
  assert.match(body, /<mark>trample<\/mark>/i);
  assert.ok(hrefs(body).some((h) => h.startsWith('/cr/2021-07-23/702.19')));
  const live = await page('/search?q=trampl&edition=2021-07-23&live=1');
  assert.match(live.body, /^<div id="results"/);
  assert.match(live.body, /<mark>/);
  assert.doesNotMatch(live.body, /<html/);
  const hostile = await page(`/search?q=${encodeURIComponent('<script>alert(1)</script> trample')}`);
  assert.equal(hostile.res.status, 200);
  assert.doesNotMatch(hostile.body, /<script>alert/);
  const number = await page('/search?q=CR%20702.19b&edition=2021-07-23');
  assert.match(number.body, /<p class="jump">\s*Rule <a href="\/cr\/2021-07-23\/702\.19#702\.19b">702\.19b<\/a>/);
  for (const [bad, arg] of [
    [`q=${'x'.repeat(600)}`, 'q'],
    ['q=a&offset=99999999', 'offset'],
    ['q=a&offset=-1', 'offset'],
  ]) {
    const r = await page(`/search?${bad}`);
    assert.equal(r.res.status, 400, bad);
    assert.match(r.body, new RegExp(`\\(${arg}\\)`), bad);
  }
  const twice = await page('/search?q=a&q=b');
  assert.equal(twice.res.status, 400);
  assert.match(twice.body, /Give the &quot;q&quot; parameter once \(q\)/);
});

test('diff page: counts, renumbering summary, changes by section linking both rules, filters and views, glossary changes', async () => {
  const { res, body } = await page('/diff/2021-06-18/2021-07-23');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), IMMUTABLE);
  assert.match(body, /<dt>Renumbered<\/dt>\s*<dd><a href="\/diff\/2021-06-18\/2021-07-23\?kind=renumbered"[^>]*>\d+<\/a><\/dd>/);
  assert.match(body, /section 706 is now 707/);
  assert.match(body, /data-section="707" data-kinds="[^"]*renumbered/);
  const links = hrefs(body);
  assert.ok(links.includes('/cr/2021-06-18/706.10') && links.includes('/cr/2021-07-23/707.10'), 'both sides of a renumbered rule');
  assert.match(body, /class="changes view-inline"/);
  const side = await page('/diff/2021-06-18/2021-07-23?view=side&kind=added');
  assert.match(side.body, /class="changes view-side"\s+data-filtered/);
  assert.doesNotMatch(side.body, /data-kinds="renumbered"/);
  assert.match(side.body, /data-kinds="added"/);
  const section = await page('/diff/2021-06-18/2021-07-23?section=706');
  // the section's changes only (a rule renumbered out of 706 is filed under its new section)
  const sections = new Set([...section.body.matchAll(/data-section="(\d+)" data-kinds/g)].map((m) => m[1]));
  assert.ok(sections.has('706') && !sections.has('702'), [...sections].join(' '));
  const bad = await page('/diff/2021-06-18/2021-07-23?kind=everything');
  assert.equal(bad.res.status, 400);
  assert.match(bad.body, /kind must be one of/i);
  const latest = await page('/diff?to=latest');
  assert.equal(latest.res.headers.get('location'), '/diff/2021-06-18/2021-07-23');
});

test('history page: every edition the rule is in, under each number, what changed and the runs it stayed the same', async () => {
  const { res, body } = await page('/history/707.10?edition=2021-07-23');
  assert.equal(res.status, 200);
  assert.match(body, /History of rule 707\.10/);
  assert.ok(hrefs(body).includes('/cr/2021-06-18/706.10'));
  assert.match(body, /Renumbered from 706\.10/);
  const missing = await page('/history/999.1');
  assert.equal(missing.res.status, 404);
});

test('browser files are served with a content hash, immutable', async () => {
  const { body } = await page('/');
  const css = /href="(\/assets\/site\.css\?v=[^"]+)"/.exec(body)![1]!;
  const res = await fetch(`${srv.url}${css}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), IMMUTABLE);
  assert.match(res.headers.get('content-type')!, /text\/css/);
  assert.equal((await fetch(`${srv.url}/assets/nothing.js`)).status, 404);
});
