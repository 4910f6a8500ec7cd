import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { corpusDb } from '../cli/corpusDb.js';
import { fixtureServer } from '../server/helpers.js';

// The web app in a real browser: Debian's chromium driven by playwright-core (which downloads no browser),
// against the server on a loopback port, the network blocked to anything but 127.0.0.1. A page fails its
// test on any console error, script error, failed or blocked request, or serious accessibility violation.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let srv: Awaited<ReturnType<typeof fixtureServer>>;
/** A server over the real corpus (its releases have diffs of many pages). */
let corpus: Awaited<ReturnType<typeof fixtureServer>>;
const corpusFile = corpusDb();
let context: BrowserContext;
let profile: string;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install it with "apt-get install -y chromium" (.ci/run does)`);
  srv = await fixtureServer({}, true);
  corpus = await fixtureServer({}, openReadOnlyDb(corpusFile()));
  profile = mkdtempSync(join(tmpdir(), 'crkb-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  await context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('blockedbyclient')));
});
after(async () => {
  await context?.close();
  await srv?.close();
  await corpus?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A fresh page (of the fixture server, or of another at `base`) whose problems (console errors, failed requests, HTTP errors) are collected for `done`. */
async function open(path: string, width = 1400, base = srv.url): Promise<{ page: Page; done: () => Promise<void> }> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed request: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  await page.goto(`${base}${path}`, { waitUntil: 'load' });
  return {
    page,
    done: async () => {
      await page.close();
      assert.deepEqual(problems, []);
    },
  };
}

/** Runs axe-core on the page; fails on serious or critical violations. */
async function accessible(page: Page): Promise<void> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> };
      }
    ).axe;
    const r = await axe.run({ resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
  });
  assert.deepEqual(violations, [], `accessibility violations on ${page.url()}`);
}

/** The page fits the viewport: nothing wider than the screen. */
async function fits(page: Page): Promise<void> {
  // (expressions as strings: the test code is compiled without the DOM library)
  const { scroll, client } = await page.evaluate<{ scroll: number; client: number }>(
    '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
  );
  assert.ok(scroll <= client, `page ${scroll}px wide in a ${client}px viewport`);
}

/** A data attribute of every change the diff page shows. */
function shownChanges(page: Page, attr: 'section' | 'kinds'): Promise<string[]> {
  return page.evaluate<string[]>(`[...document.querySelectorAll('#changes .change')].filter((e) => e.offsetParent !== null).map((e) => e.dataset.${attr})`);
}

test('home page: contents, edition picker, search box; accessible', async () => {
  const { page, done } = await open('/');
  assert.equal(await page.locator('h1').textContent(), 'Magic: The Gathering Comprehensive Rules');
  assert.ok((await page.locator('.toc a[href^="/cr/latest/"]').count()) > 5);
  await page.selectOption('#pick-edition', '2021-06-18');
  await Promise.all([page.waitForURL(/\/cr\/2021-06-18$/), page.click('form.picker button')]);
  await accessible(page);
  await done();
});

test('rule page: a glossary tooltip on hover and on focus; a reference link opens the cited rule; dark, 360 px and print', async () => {
  const { page, done } = await open('/cr/2021-07-23/702.19');
  const term = page.locator('a.term', { hasText: /^trample$/i }).first();
  await term.hover();
  const tip = page.locator('#term-tip');
  await tip.waitFor({ state: 'visible' });
  assert.match((await tip.textContent()) ?? '', /excess combat damage/);
  assert.equal(await term.getAttribute('aria-describedby'), 'term-tip');
  await page.mouse.move(0, 0);
  await tip.waitFor({ state: 'hidden' });
  await term.focus();
  await tip.waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await tip.waitFor({ state: 'hidden' });
  await accessible(page);
  // "See rules 510.1c-d": the link opens rule 510.1 at 510.1c, in the same edition
  await Promise.all([page.waitForURL(/\/cr\/2021-07-23\/510\.1#510\.1c$/), page.locator('a.ref', { hasText: '510.1c' }).first().click()]);
  assert.equal(await page.locator(':target').getAttribute('id'), '510.1c');
  await page.emulateMedia({ colorScheme: 'dark' });
  const bg = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
  assert.notEqual(bg, 'rgb(255, 255, 255)');
  await accessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await fits(page);
  await page.emulateMedia({ media: 'print', colorScheme: 'light' });
  assert.equal(await page.locator('header.site').isVisible(), false);
  assert.equal(await page.locator('article.rule-page').isVisible(), true);
  await done();
});

test('search as you type: results replace the list without a page load, the URL follows', async () => {
  const { page, done } = await open('/search?edition=2021-07-23');
  await page.locator('#q').pressSequentially('tramp', { delay: 40 });
  await page.locator('#results mark').first().waitFor();
  assert.match((await page.locator('#results').textContent()) ?? '', /702\.19/);
  await page.waitForURL(/q=tramp/);
  await accessible(page);
  await Promise.all([page.waitForURL(/\/cr\/2021-07-23\/702\.19/), page.locator('#results a').first().click()]);
  await done();
});

test('diff page: side-by-side toggle and filters apply at once; 360 px', async () => {
  const { page, done } = await open('/diff/2021-06-18/2021-07-23');
  const changes = page.locator('#changes');
  assert.equal(await page.locator('.change .side').first().isVisible(), false);
  await page.locator('input[name=view][value=side]').check();
  assert.match((await changes.getAttribute('class')) ?? '', /view-side/);
  assert.equal(await page.locator('.change .side').first().isVisible(), true);
  assert.equal(await page.locator('.change .inline').first().isVisible(), false);
  const total = await page.locator('.change:visible').count();
  // a section scopes the whole page: the server's page for it, the view kept
  await Promise.all([page.waitForURL(/section=706&view=side$/), page.selectOption('#f-section', '706')]);
  const inSection = await page.locator('.change:visible').count();
  assert.ok(inSection > 0 && inSection < total, `${inSection} of ${total}`);
  // every change shown has a rule of 706 on one side (one renumbered out of it is filed under its new section)
  const heads = await page.evaluate<string[]>(`[...document.querySelectorAll('#changes .change h4')].map((e) => e.textContent)`);
  assert.ok(
    heads.every((h) => /\b706\b/.test(h)),
    heads.join(' | '),
  );
  await Promise.all([page.waitForURL(/kind=/), page.locator('input[name=kind][value=added]').uncheck()]);
  await page.locator('#changes').waitFor();
  const kinds = await shownChanges(page, 'kinds');
  assert.ok(kinds.every((k) => k.split(' ').some((x) => x !== 'added')));
  assert.match(page.url(), /section=706/);
  assert.match(
    (await page.locator('form.filters .shown').textContent()) ?? '',
    new RegExp(`^${await page.locator('.change:visible').count()} (of \\d+ )?changes shown`),
  );
  await accessible(page);
  await page.setViewportSize({ width: 360, height: 800 });
  await fits(page);
  await done();
});

test('a diff of many pages: the view changes in place and keeps the page; the pager keeps the view; a filter starts at its first page', async () => {
  const base = '/diff/2009-05-01/2009-07-11';
  const { page, done } = await open(`${base}?page=2`, 1400, corpus.url);
  assert.match((await page.locator('nav.pager p').first().textContent()) ?? '', /^Page 2 of \d+\./);
  await page.evaluate('window.crkbSamePage = true');
  await page.locator('input[name=view][value=side]').check();
  await page.waitForURL(/page=2/);
  assert.match(page.url(), /\?view=side&page=2$/);
  assert.equal(await page.evaluate('window.crkbSamePage'), true, 'the view changed without a page load');
  assert.equal(await page.locator('.change .side').first().isVisible(), true);
  await accessible(page);
  // the next page, in the view chosen
  await Promise.all([page.waitForURL(/page=3/), page.locator('nav.pager a', { hasText: 'Next page' }).first().click()]);
  assert.deepEqual([...new URL(page.url()).searchParams].sort(), [
    ['page', '3'],
    ['view', 'side'],
  ]);
  assert.match((await page.locator('nav.pager p').first().textContent()) ?? '', /^Page 3 of/);
  assert.equal(await page.locator('.change .side').first().isVisible(), true);
  // another filter: the server's first page of it
  await Promise.all([page.waitForURL(/kind=/), page.locator('input[name=kind][value=renumbered]').uncheck()]);
  assert.doesNotMatch(page.url(), /page=/);
  assert.ok((await shownChanges(page, 'kinds')).every((k) => k !== 'renumbered'));
  await page.setViewportSize({ width: 360, height: 800 });
  await fits(page);
  await done();
});

test('history page: the timeline across renumbering; accessible at 360 px', async () => {
  const { page, done } = await open('/history/707.10?edition=2021-07-23', 360);
  assert.ok((await page.locator('ol.timeline > li').count()) >= 2);
  assert.match((await page.locator('ol.timeline').textContent()) ?? '', /Renumbered from 706\.10/);
  await fits(page);
  await accessible(page);
  await done();
});

test('GraphiQL renders its editor from local files and runs a query; it and /docs/api are accessible, light and dark', async () => {
  const { page, done } = await open('/graphql');
  await page.locator('.graphiql-query-editor .CodeMirror').waitFor();
  await page.locator('.graphiql-execute-button').click();
  await page.locator('.result-window', { hasText: '702.19b' }).waitFor();
  assert.match((await page.locator('.result-window').textContent()) ?? '', /"effectiveDate": "2021-07-23"/);
  await accessible(page);
  // the dark theme (the system's) and the API reference, light and dark
  await page.emulateMedia({ colorScheme: 'dark' });
  await accessible(page);
  await page.goto(`${srv.url}/docs/api`);
  await accessible(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await accessible(page);
  await done();
});

test('judge paths: an old number to its new one; the latest diff to the previous release, a section, a rule history', async () => {
  // (the rule page of a number the edition lacks answers 404 with the lineage's answer: not a problem here)
  const page = await context.newPage();
  const res = await page.goto(`${srv.url}/cr/latest/706.10`);
  assert.equal(res?.status(), 404);
  await accessible(page);
  await Promise.all([page.waitForURL(/\/cr\/latest\/707\.10$/), page.locator('p.moved a', { hasText: '707.10' }).first().click()]);
  assert.match((await page.locator('h1').textContent()) ?? '', /707\.10/);
  await page.close();
  const { page: p, done } = await open('/');
  await Promise.all([p.waitForURL(/\/diff$/), p.locator('header.site a', { hasText: 'What changed' }).click()]);
  await Promise.all([p.waitForURL(/\/diff\/2021-06-18\/2021-07-23$/), p.locator('table.releases a').first().click()]);
  await Promise.all([p.waitForURL(/\/diff\/2008-10-01\/2021-06-18$/), p.locator('a[rel=prev]', { hasText: 'Previous release' }).click()]);
  await Promise.all([p.waitForURL(/section=702/), p.selectOption('#f-section', '702')]);
  assert.deepEqual([...new Set(await shownChanges(p, 'section'))], ['702']);
  await Promise.all([p.waitForURL(/\/cr\/2021-06-18\/702/), p.locator('.change a', { hasText: 'after' }).first().click()]);
  await Promise.all([p.waitForURL(/\/history\//), p.locator('ul.links a', { hasText: 'History of' }).click()]);
  assert.ok((await p.locator('ol.timeline > li').count()) >= 1);
  await accessible(p);
  await done();
});

test('phones: no horizontal scroll at 360 px on home, an edition, a rule, the diffs; a tapped glossary word shows its definition in place', async () => {
  const { page, done } = await open('/', 360);
  for (const path of ['/', '/cr/2021-06-18', '/cr/2021-07-23/702.19', '/diff/2008-10-01/2021-07-23', '/diff', '/cr/2021-07-23/glossary']) {
    await page.goto(`${srv.url}${path}`);
    await fits(page);
    // the page kinds no other test checks: an edition, the diffs index, the glossary
    if (['/cr/2021-06-18', '/diff', '/cr/2021-07-23/glossary'].includes(path)) await accessible(page);
  }
  await page.goto(`${srv.url}/cr/2021-07-23/702.19`);
  const before = await page.evaluate<number>('window.scrollY');
  await page
    .locator('a.term', { hasText: /^trample$/i })
    .first()
    .click();
  await page.locator('#term-tip').waitFor({ state: 'visible' });
  assert.match((await page.locator('#term-tip').textContent()) ?? '', /excess combat damage/);
  assert.equal(await page.evaluate<number>('window.scrollY'), before, 'no jump to the glossary box');
  assert.doesNotMatch(page.url(), /#g-/);
  await done();
});

test('long pages: #R70219b opens #702.19b; keys p, n and u follow the rule navigation at the top of the page', async () => {
  const { page, done } = await open('/cr/2021-07-23/702.19#R70219b');
  await page.waitForURL(/#702\.19b$/);
  assert.equal(await page.locator('nav.prevnext.top a[rel=up]').getAttribute('href'), '/cr/2021-07-23/702');
  assert.match((await page.locator('p.keys').textContent()) ?? '', /n next rule/);
  await Promise.all([page.waitForURL(/\/cr\/2021-07-23\/704\.5$/), page.keyboard.press('n')]);
  await Promise.all([page.waitForURL(/\/cr\/2021-07-23\/702\.19$/), page.keyboard.press('p')]);
  await done();
});

test('search: a corrected typo is said, with a link to the words as typed; the count is exact; the live list is the page', async () => {
  const { page, done } = await open('/search?edition=2021-07-23');
  await page.locator('#q').pressSequentially('comabt damage', { delay: 30 });
  const notice = page.locator('#results .corrected');
  await notice.waitFor();
  assert.match((await notice.textContent()) ?? '', /^Showing results for combat damage \(searched for comabt damage\)\./);
  await page.waitForURL(/q=comabt\+damage/);
  const live = (await page.locator('#results').innerHTML()).trim();
  const shown = await page.locator('#results ol.hits > li').count();
  assert.ok(shown > 0);
  // no "more": the count is the number of hits, which all fit on the page
  assert.equal((await page.locator('#results .count').textContent())?.trim(), `1–${shown} of ${shown} result${shown === 1 ? '' : 's'}`);
  await accessible(page);
  // the page loaded at that URL shows what the live list showed
  await page.reload({ waitUntil: 'load' });
  assert.equal((await page.locator('#results').innerHTML()).trim(), live);
  await Promise.all([page.waitForURL(/verbatim=1/), notice.locator('a').click()]);
  assert.equal(await page.locator('#results .corrected').count(), 0);
  assert.doesNotMatch((await page.locator('#results').textContent()) ?? '', /Showing results for/);
  await done();
});

test('history of a title rule: a step lists its subrule changes, each a link to the subrule then', async () => {
  const { page, done } = await open('/history/702.19?edition=2021-07-23', 360);
  const step = page.locator('ol.timeline > li.step', { has: page.locator('.subrule-changes') }).first();
  assert.match((await step.locator('.what').textContent()) ?? '', /subrules changed/);
  const added = step.locator('.subrule-changes li.added', { hasText: '702.19c' });
  assert.equal(await added.count(), 1);
  await fits(page);
  await accessible(page);
  await Promise.all([page.waitForURL(/\/cr\/2021-06-18\/702\.19#702\.19c$/), added.locator('a').first().click()]);
  assert.equal(await page.locator(':target').getAttribute('id'), '702.19c');
  await done();
});
