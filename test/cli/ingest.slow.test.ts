import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openReadOnlyDb } from '../../src/db/openDb.js';
import { Catalog } from '../../src/db/Catalog.js';
import { lockDatabase } from '../../ingest/store/lockDatabase.js';
import { formatReport } from '../../src/cli/ingest.js';
import { crFixtureText } from '../support/crFixture.js';

const corpus = resolve(process.cwd(), '../shared/corpus');
const file = (name: string): string => join(corpus, 'rulesraker', name);

function crkb(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; signal: string | null; out: string; err: string }> } {
  const child = spawn(process.execPath, ['bin/crkb.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal, out, err })),
  );
  return { child, done };
}

function storedDates(dbFile: string): string[] {
  const db = openReadOnlyDb(dbFile);
  try {
    return new Catalog(db)
      .editions()
      .map((e) => e.effectiveDate)
      .sort();
  } finally {
    db.close();
  }
}

test('two ingests into one database at the same time both get stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-concurrent-'));
  try {
    const db = join(dir, 'c.db');
    const a = crkb(['ingest', ...['2003-03-15', '2003-07-01', '2003-10-01', '2003-12-01'].map((d) => file(`${d}.txt`)), '--db', db]);
    const b = crkb(['ingest', ...['2004-02-01', '2004-10-01', '2005-02-01', '2006-06-01'].map((d) => file(`${d}.txt`)), '--db', db]);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    assert.equal(ra.code, 0, ra.err);
    assert.equal(rb.code, 0, rb.err);
    // 2006-06-01.txt is the 2004-06-01 edition
    assert.deepEqual(storedDates(db), ['2003-03-15', '2003-07-01', '2003-10-01', '2003-12-01', '2004-02-01', '2004-06-01', '2004-10-01', '2005-02-01']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an ingest waits for the one writing the database, or gives up with one line and writes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-busy-'));
  const db = join(dir, 'c.db');
  // this process plays the other ingest
  const held = await lockDatabase(db, { waitMs: 0 });
  try {
    const impatient = await crkb(['ingest', file('2003-03-15.txt'), '--db', db, '--wait', '0']).done;
    assert.equal(impatient.code, 1);
    assert.equal(impatient.err.trim().split('\n').length, 1, impatient.err);
    assert.match(impatient.err, /^crkb: .*c\.db: another ingest is writing this database; nothing was written/);
    assert.equal(existsSync(db), false);

    const patient = crkb(['ingest', file('2003-03-15.txt'), '--db', db, '--wait', '30']);
    let err = '';
    patient.child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    await waitFor(() => /waiting for it \(up to 30 s\)/.test(err));
    assert.equal(existsSync(db), false, 'nothing is written while it waits');
    held.release();
    const r = await patient.done;
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(storedDates(db), ['2003-03-15']);
  } finally {
    held.release();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('kill -9 during an ingest leaves the database as it was; the next run removes the temporary copy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-kill-'));
  try {
    const db = join(dir, 'k.db');
    assert.equal((await crkb(['ingest', file('2003-03-15.txt'), '--db', db]).done).code, 0);
    const before = readFileSync(db);
    const run = crkb(['ingest', file('2003-07-01.txt'), file('2003-10-01.txt'), file('2006-06-01.txt'), file('2003-12-01.txt'), '--db', db]);
    const tmp = `${db}.tmp-${run.child.pid}`;
    await waitFor(() => existsSync(tmp));
    run.child.kill('SIGKILL');
    assert.equal((await run.done).signal, 'SIGKILL');
    assert.ok(readFileSync(db).equals(before), 'the database is untouched');
    assert.ok(existsSync(tmp), 'the killed run left its copy');
    // A copy named after a process id that is now some other, living process (ids are reused).
    const reused = `${db}.tmp-${process.pid}`;
    writeFileSync(reused, 'half-written');

    // --wait 0: the killed run's lock went with its process
    const next = await crkb(['ingest', file('2003-07-01.txt'), '--db', db, '--wait', '0']).done;
    assert.equal(next.code, 0, next.err);
    assert.deepEqual(storedDates(db), ['2003-03-15', '2003-07-01']);
    // no copy left; the check's marker (crkb ingest writes it) names the stored file, not the killed run's
    assert.deepEqual(readdirSync(dir).sort(), ['k.db', 'k.db.checked', 'k.db.lock']);
    assert.equal(readFileSync(`${db}.checked`, 'latin1').trim(), createHash('sha256').update(readFileSync(db)).digest('hex'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

async function waitFor(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('the report says when a finding is in a copy that was merged but not stored', () => {
  const findings = ['2489: odd-character: rule 700.5a holds U+00A0: "Ghazb n"'];
  const text = formatReport({
    dbFile: 'x.db',
    editions: [
      {
        family: 'cr',
        effectiveDate: '2013-07-13',
        label: '',
        official: true,
        status: 'added',
        primary: 'docx/2013-07-11.docx',
        why: 'official',
        files: [
          {
            path: 'docx/2013-07-11.docx',
            encoding: 'word',
            lineEndings: [],
            differing: 0,
            identicalTo: null,
            findings: [],
            provenance: { official: true, url: null, archive: null, name: 'x', sha256: 'a', why: 'official' },
          },
          {
            path: 'CR-2013-07-11.txt',
            encoding: 'windows-1252',
            lineEndings: ['crlf'],
            differing: 18,
            identicalTo: null,
            findings,
            provenance: { official: true, url: null, archive: null, name: 'x', sha256: 'a', why: 'official' },
          },
        ],
        counts: { parts: 9, sections: 120, rules: 2000, examples: 200, glossary: 500 },
        unaccountedLines: 0,
        findings: 0,
        warnings: [],
      },
    ],
    fragments: [],
    rejected: [],
    skipped: [],
    unavailable: [],
    wrote: true,
    seconds: 1,
    peakRssMb: 1,
    cpuSeconds: 1,
    phases: {},
  });
  assert.match(text, /finding in this copy only \(not stored\) CR-2013-07-11\.txt:2489: odd-character/);
  assert.match(text, /0 findings/);
});

test('crkb ingest --archive DIR PATH ingests both; a PDF in a folder is read, a broken one rejected by name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-archive-'));
  try {
    const archive = join(dir, 'archive');
    mkdirSync(archive);
    writeFileSync(join(archive, 'june.txt'), crFixtureText('2026-06-19'));
    writeFileSync(join(archive, 'june.pdf'), '%PDF-1.4\n');
    writeFileSync(join(dir, 'august.txt'), crFixtureText('2026-08-07'));
    const db = join(dir, 'x.db');
    const r = await crkb(['ingest', '--archive', archive, join(dir, 'august.txt'), '--db', db]).done;
    assert.equal(r.code, 2, r.err);
    assert.deepEqual(storedDates(db), ['2026-06-19', '2026-08-07']);
    assert.match(r.out + r.err, /june\.pdf: corrupt PDF/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
