import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../support/tempDir.js';
import { createServer, type Server } from 'node:http';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildManifest, datesOfUrl } from '../../ingest/store/buildManifest.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs, planFromManifest, readManifest, sha256Hex, type Manifest } from '../../ingest/store/sources.js';
import { projectRoot } from '../../src/core/projectFiles.js';

const corpus = resolve(process.cwd(), '../shared/corpus');

test('download addresses name their dates in several styles', () => {
  assert.deepEqual(datesOfUrl('https://media.wizards.com/2022/downloads/MagicCompRules%2020221118.txt'), ['2022-11-18']);
  assert.deepEqual(datesOfUrl('http://www.wizards.com/dci/oracle/MagicCompRules_031503.txt'), ['2003-03-15']);
  // Six digits are ambiguous: MMDDYY or YYMMDD.
  assert.deepEqual(datesOfUrl('http://www.wizards.com/magic/comprules/MagicCompRules041001.txt'), ['2001-04-10', '2004-10-01']);
  assert.deepEqual(datesOfUrl('http://example.org/rules.txt'), []);
});

test('the manifest joins files, download addresses and set releases', () => {
  const m = buildManifest({
    files: [
      { path: 'a/CR-2004-10-01.txt', sha256: 'aa', labelDate: '2004-10-01', family: 'cr', effectiveDate: '2004-10-01' },
      { path: 'b/2021-07-12.txt', sha256: 'bb', labelDate: '2021-07-12', family: 'cr', effectiveDate: '2021-07-23' },
    ],
    officialUrls: [
      'http://www.wizards.com/magic/comprules/MagicCompRules041001.txt',
      'https://media.wizards.com/2021/downloads/MagicCompRules%2020210712.txt',
      'http://www.wizards.com/magic/comprules/MagicCompRules051001.txt',
      'https://media.wizards.com/2021/downloads/MagicCompRules%2020210712.docx',
    ],
    metadata: { KnownExistingDates: ['2023-02-03'], URLFormats: { Available: ['https://x/{{year}}/MagicCompRules%20{{year}}{{month}}{{day}}.{{ext}}'] } },
    setReleases: { releases: [{ setCode: 'AFR', setName: 'Adventures in the Forgotten Realms', publishedOn: '2021-07-23' }] },
  });
  const byDate = new Map(m.editions.map((e) => [e.effectiveDate, e]));
  assert.deepEqual(byDate.get('2004-10-01')!.urls, ['http://www.wizards.com/magic/comprules/MagicCompRules041001.txt']);
  // Attached by the file's archive label, not only by the effective date; .docx left out.
  assert.deepEqual(byDate.get('2021-07-23')!.urls, ['https://media.wizards.com/2021/downloads/MagicCompRules%2020210712.txt']);
  assert.equal(byDate.get('2021-07-23')!.setCode, 'AFR');
  // A known edition with no local copy gets its address from the template; ambiguous strays are not invented.
  assert.deepEqual(byDate.get('2023-02-03')!.urls, ['https://x/2023/MagicCompRules%2020230203.txt']);
  assert.equal(m.editions.length, 3);
});

test('a set the archives do not record comes from data/published.json, which also corrects their releases', () => {
  const m = buildManifest({
    files: [
      { path: 'b/2021-07-12.txt', sha256: 'bb', labelDate: '2021-07-12', family: 'cr', effectiveDate: '2021-07-23' },
      { path: 'b/2020-06-01.txt', sha256: 'cc', labelDate: '2020-06-01', family: 'cr', effectiveDate: '2020-06-01' },
      { path: 'b/2021-06-18.txt', sha256: 'dd', labelDate: '2021-06-18', family: 'cr', effectiveDate: '2021-06-18' },
    ],
    officialUrls: [],
    metadata: null,
    published: {
      editions: [
        { effectiveDate: '2021-07-23', setCode: 'XXX', setName: 'Corrected' },
        { effectiveDate: '2020-06-01', setCode: null, setName: null },
        { effectiveDate: '2021-06-18', urls: [] },
        { effectiveDate: '2023-04-14', setCode: 'MOM', setName: 'March of the Machine' },
      ],
    },
    setReleases: {
      releases: [
        { setCode: 'AFR', setName: 'Adventures in the Forgotten Realms', publishedOn: '2021-07-23' },
        { setCode: 'IKO_2', setName: 'Companion Change', publishedOn: '2020-06-01' },
        { setCode: 'MH2', setName: 'Modern Horizons 2', publishedOn: '2021-06-18' },
      ],
    },
  });
  const set = (d: string) => [m.editions.find((e) => e.effectiveDate === d)!.setCode, m.editions.find((e) => e.effectiveDate === d)!.setName];
  assert.deepEqual(set('2021-07-23'), ['XXX', 'Corrected']);
  assert.deepEqual(set('2020-06-01'), [null, null], 'an invented code is cleared by a null');
  assert.deepEqual(set('2021-06-18'), ['MH2', 'Modern Horizons 2'], 'an entry with no setCode leaves the release');
  assert.deepEqual(set('2023-04-14'), ['MOM', 'March of the Machine']);
});

test('the project manifest names the set of every edition from 2022 to 2026-01-16', () => {
  const manifest = JSON.parse(readFileSync(join(projectRoot(), 'data/sources.json'), 'utf8')) as {
    editions: Array<{ family: string; effectiveDate: string; setCode: string | null }>;
  };
  const cr = manifest.editions.filter((e) => e.family === 'cr' && e.effectiveDate >= '2022-01-01' && e.effectiveDate <= '2026-01-16');
  assert.deepEqual(
    cr.filter((e) => !e.setCode).map((e) => e.effectiveDate),
    [],
  );
  assert.equal(cr.find((e) => e.effectiveDate === '2023-04-14')!.setCode, 'MOM');
});

test('the manifest knows every format the archive lists, irregular names and editions beyond the archives', () => {
  const m = buildManifest({
    files: [{ path: 'd/2004-06-01.doc', sha256: 'cc', labelDate: '2004-06-01', family: 'cr', effectiveDate: '2003-06-01' }],
    officialUrls: ['https://media.wizards.com/2023/downloads/MagicCompRules%2020230203.txt'],
    metadata: {
      KnownExistingDates: ['2023-02-03', '2004-06-01'],
      URLFormats: { Available: ['https://x/{{year}}/MagicCompRules%20{{year}}{{month}}{{day}}.{{ext}}'] },
      Rules: [
        { Date: '2004-06-01', Format: 'docx', URL: null },
        { Date: '2023-02-03', Format: 'docx', URL: 'https://media.wizards.com/2023/downloads/MagicCompRules%2020230203.docx' },
        { Date: '2023-02-03', Format: 'pdf', URL: 'https://media.wizards.com/2023/downloads/MagicCompRules%2020230203.pdf' },
      ],
    },
    setReleases: null,
    published: {
      editions: [
        { effectiveDate: '2021-09-24', urls: ['https://media.wizards.com/2021/downloads/MagicCompRules%20202109224.txt'] },
        { effectiveDate: '2026-08-07', urls: ['https://m/MagicCompRules%2020260819.txt', 'https://m/MagicCompRules%2020260807.txt'] },
      ],
    },
  });
  const byDate = new Map(m.editions.map((e) => [e.effectiveDate, e]));
  // no .txt was published for 2023-02-03: neither url.txt's guess nor the template makes one up
  assert.deepEqual(byDate.get('2023-02-03')!.urls, []);
  assert.deepEqual(byDate.get('2023-02-03')!.downloads, {
    docx: ['https://media.wizards.com/2023/downloads/MagicCompRules%2020230203.docx'],
    pdf: ['https://media.wizards.com/2023/downloads/MagicCompRules%2020230203.pdf'],
  });
  // the Scourge edition, known by its document only, under the date it states
  assert.deepEqual(
    byDate.get('2003-06-01')!.files.map((f) => f.path),
    ['d/2004-06-01.doc'],
  );
  assert.equal(byDate.has('2004-06-01'), false);
  assert.deepEqual(byDate.get('2021-09-24')!.urls, ['https://media.wizards.com/2021/downloads/MagicCompRules%20202109224.txt']);
  assert.equal(byDate.get('2026-08-07')!.urls.length, 2);
  assert.deepEqual([...byDate.keys()], ['2003-06-01', '2021-09-24', '2023-02-03', '2026-08-07']);
});

test('data/sources.json knows every edition through 2026-09-25', () => {
  const m = readManifest(join(process.cwd(), 'data', 'sources.json'));
  const dates = new Set(m.editions.filter((e) => e.family === 'cr').map((e) => e.effectiveDate));
  for (const d of ['2003-06-01', '2021-09-24', '2023-02-03', '2026-02-27', '2026-04-17', '2026-06-19', '2026-08-07', '2026-09-25']) assert.ok(dates.has(d), d);
  const one = m.editions.find((e) => e.effectiveDate === '2023-02-03')!;
  assert.ok(one.files.some((f) => f.path.endsWith('.docx')) && one.downloads?.docx?.length === 1);
});

async function serve(routes: Record<string, Buffer | number>): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const body = routes[req.url ?? ''];
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>404 Not Found</h1></body></html>');
    } else if (typeof body === 'number') {
      // Streams `body` bytes of text without announcing a length.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const push = (): void => {
        while (sent < body) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end();
      };
      push();
    } else {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('--fetch downloads editions with no local copy, verifies checksums and lists what cannot be had', async () => {
  const good = readFileSync(join(corpus, 'rulesraker/2020-09-25.txt'));
  const other = readFileSync(join(corpus, 'rulesraker/2020-11-20.txt'));
  const { server, base } = await serve({ '/good.txt': good, '/tampered.txt': other, '/huge.txt': 21 * 1024 * 1024 });
  try {
    const manifest: Manifest = {
      note: 'test',
      editions: [
        {
          family: 'cr',
          effectiveDate: '2020-09-25',
          setCode: 'ZNR',
          setName: 'Zendikar Rising',
          urls: [`${base}/good.txt`],
          files: [{ path: 'x/2020-09-25.txt', sha256: sha256Hex(good), labelDate: null }],
        },
        {
          family: 'cr',
          effectiveDate: '2020-11-20',
          setCode: null,
          setName: null,
          urls: [`${base}/tampered.txt`],
          files: [{ path: 'x/2020-11-20.txt', sha256: sha256Hex(good), labelDate: null }],
        },
        { family: 'cr', effectiveDate: '2021-01-01', setCode: null, setName: null, urls: [`${base}/missing.txt`], files: [] },
        { family: 'cr', effectiveDate: '2021-02-01', setCode: null, setName: null, urls: [`${base}/huge.txt`], files: [] },
        { family: 'cr', effectiveDate: '2021-03-01', setCode: null, setName: null, urls: [], files: [] },
      ],
    };
    const dir = tempDir('crkb-fetch-');
    const cacheDir = join(dir, 'cache');
    const offline = planFromManifest(manifest, null, { fetch: false, cacheDir });
    assert.equal(offline.inputs.length, 0);
    assert.equal(offline.unavailable.length, 5);

    const plan = planFromManifest(manifest, null, { fetch: true, cacheDir });
    assert.deepEqual(
      plan.unavailable.map((u) => u.effectiveDate),
      ['2021-03-01'],
    );
    const r = await runIngest({ inputs: plan.inputs, dbFile: join(dir, 'x.db'), manifest, unavailable: plan.unavailable });
    assert.deepEqual(
      r.editions.map((e) => [e.effectiveDate, e.official]),
      [['2020-09-25', true]],
    );
    const reasons = r.rejected.map((x) => `${x.source} ${x.reason}`).sort();
    assert.equal(reasons.length, 3);
    assert.match(
      reasons.find((x) => x.includes('huge'))!,
      /too large: over 20971520 bytes/,
    );
    assert.match(
      reasons.find((x) => x.includes('missing'))!,
      /HTTP 404/,
    );
    assert.match(
      reasons.find((x) => x.includes('tampered'))!,
      /checksum mismatch/,
    );
    assert.ok(existsSync(join(cacheDir, 'cr-2020-09-25.txt')), 'downloads are cached');

    // Once cached, the edition is found offline.
    const again = planFromManifest(manifest, null, { fetch: false, cacheDir });
    assert.equal(again.inputs[0]!.location, join(cacheDir, 'cr-2020-09-25.txt'));
  } finally {
    server.close();
  }
});

test('a folder with dangling symbolic links and link loops: each is rejected by name, the rest is stored', async () => {
  const dir = tempDir('crkb-links-');
  try {
    const folder = join(dir, 'in');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    copyFileSync(join(corpus, 'rulesraker/2003-03-15.txt'), join(folder, 'sub', '2003-03-15.txt'));
    symlinkSync(join(dir, 'gone.txt'), join(folder, 'dangling.txt'));
    symlinkSync('self.txt', join(folder, 'self.txt'));
    symlinkSync('b', join(folder, 'a'));
    symlinkSync('a', join(folder, 'b'));
    // a folder link back to an ancestor: walking it would never end
    symlinkSync('..', join(folder, 'sub', 'up'));
    const r = await runIngest({ inputs: expandInputs([folder, join(dir, 'missing.txt')]), dbFile: join(dir, 'x.db') });
    assert.deepEqual(
      r.editions.map((e) => e.effectiveDate),
      ['2003-03-15'],
    );
    const reasons = Object.fromEntries(r.rejected.map((x) => [x.source.slice(dir.length + 1), x.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), ['in/a', 'in/b', 'in/dangling.txt', 'in/self.txt', 'in/sub/up', 'missing.txt']);
    assert.match(reasons['in/dangling.txt']!, /^dangling symbolic link \(to .*gone\.txt/);
    assert.match(reasons['in/self.txt']!, /^symbolic link loop/);
    assert.match(reasons['in/a']!, /^symbolic link loop/);
    assert.match(reasons['in/sub/up']!, /^symbolic link loop: leads back to .*in$/);
    assert.match(reasons['missing.txt']!, /no such file or folder/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a download that ends short or stalls is rejected naming its URL; the other downloads are stored', async () => {
  const good = readFileSync(join(corpus, 'rulesraker/2003-03-15.txt'));
  const server = createServer((req, res) => {
    if (req.url === '/good.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(good);
    if (req.url === '/silent.txt') return; // never answers
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(good.length) });
    res.write(good.subarray(0, 1000), () => {
      // the connection drops; /stalled.txt keeps it open and sends nothing more
      if (req.url === '/short.txt') res.socket?.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = tempDir('crkb-downloads-');
  try {
    const inputs = expandInputs(['short', 'stalled', 'silent', 'good'].map((n) => `${base}/${n}.txt`));
    const started = Date.now();
    const r = await runIngest({ inputs, dbFile: join(dir, 'x.db'), downloadTimeoutMs: 300 });
    assert.ok(Date.now() - started < 10_000, 'stalled downloads are given up after the inactivity timeout');
    assert.deepEqual(
      r.editions.map((e) => e.effectiveDate),
      ['2003-03-15'],
    );
    const reasons = Object.fromEntries(r.rejected.map((x) => [x.source, x.reason]));
    assert.deepEqual(Object.keys(reasons), [`${base}/short.txt`, `${base}/stalled.txt`, `${base}/silent.txt`]);
    assert.match(reasons[`${base}/short.txt`]!, new RegExp(`^download ended early: the connection closed after 1000 of the ${good.length} announced bytes`));
    assert.match(reasons[`${base}/stalled.txt`]!, /^download stalled: no data for 0\.3 s after 1000 of the \d+ announced bytes$/);
    assert.match(reasons[`${base}/silent.txt`]!, /^download stalled: no response for 0\.3 s$/);
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
