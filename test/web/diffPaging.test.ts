import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { corpusDb } from '../cli/corpusDb.js';
import { fixtureServer } from '../server/helpers.js';

// The diff pages of the real corpus's largest release (2009-05-01 → 2009-07-11: 1,670 rule changes, 95
// example changes, 449 glossary changes), over HTTP from an in-process server.
const dbFile = corpusDb();
let srv: Awaited<ReturnType<typeof fixtureServer>>;
before(async () => {
  srv = await fixtureServer({}, openReadOnlyDb(dbFile()));
});
after(() => srv.close());

async function page(path: string) {
  const res = await fetch(`${srv.url}${path}`, { redirect: 'manual' });
  return { res, body: await res.text() };
}

test('a long diff is read page by page: every change on exactly one page, in order, each page light; the pager keeps the view; a page past the last is a 404', async () => {
  const base = '/diff/2009-05-01/2009-07-11';
  const kb = srv.kb();
  const [from, to] = ['2009-05-01', '2009-07-11'].map((d) => kb.resolveEdition(d).edition);
  const whole = kb.diff(from!, to!, { segments: false });
  const first = await page(`${base}?view=side`);
  const pages = Number(/Page 1 of (\d+)\./.exec(first.body)?.[1]);
  assert.ok(pages > 3, `${pages} pages`);
  const heads: string[] = [];
  let examples = 0;
  let glossary = 0;
  for (let p = 1; p <= pages; p++) {
    const { res, body } = p === 1 ? first : await page(`${base}?view=side&page=${p}`);
    assert.equal(res.status, 200, `page ${p}`);
    // light: the largest releases made single pages of 800 KB
    assert.ok(body.length < 160_000, `page ${p}: ${body.length} characters`);
    assert.match(body, new RegExp(`Page ${p} of ${pages}\\.`));
    assert.match(
      body,
      new RegExp(`<a href="${base}\\?view=side(&amp;page=${p})?" aria-current="page">${p}</a>`),
      `page ${p} is marked, its link keeps the view`,
    );
    assert.match(body, /class="changes view-side" data-filtered/, 'a page lacks the other changes: filters ask the server');
    heads.push(...[...body.matchAll(/<article class="change" data-section="[^"]+" data-kinds="[^"]+"><h4>([^<]+?) </g)].map((m) => m[1]!));
    examples += body.split('<article class="example-change">').length - 1;
    glossary += [...body.matchAll(/<dl class="glossary-changes">([\s\S]*?)<\/dl>/g)].reduce((n, m) => n + m[1]!.split('<dt>').length - 1, 0);
  }
  const title = (c: (typeof whole.changes)[number]): string =>
    !c.before ? c.after!.number : !c.after ? c.before.number : c.renumbered ? `${c.before.number} → ${c.after.number}` : c.after.number;
  assert.deepEqual(heads, whole.changes.map(title));
  assert.equal(examples, whole.examples.length);
  assert.equal(glossary, whole.glossary.length);
  const past = await page(`${base}?page=${pages + 1}`);
  assert.equal(past.res.status, 404);
  assert.match(past.body, new RegExp(`page ${pages + 1} of this diff does not exist: its changes fill ${pages} pages`, 'i'));
  for (const bad of ['0', 'two', '1.5']) {
    const r = await page(`${base}?page=${bad}`);
    assert.equal(r.res.status, 400, bad);
    assert.match(r.body, /page must be a whole number from 1/i);
  }
  // a diff that fits one page has no pager
  const small = await page('/diff/2022-11-18/2023-02-03');
  assert.match(small.body, /Changes by section/);
  assert.doesNotMatch(small.body, /class="pager"/);
});
