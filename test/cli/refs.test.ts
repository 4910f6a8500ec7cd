import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captureCli, corpusDb } from './corpusDb.js';

const db = corpusDb();
const cli = (run: (argv: string[]) => Promise<number>, ...argv: string[]) => captureCli(run, db(), argv);
import { run } from '../../src/cli/refs.js';

test('refs 707.10 --incoming includes 700.2g', async () => {
  const r = await cli(run, '707.10', '--edition', '2021-07-23', '--incoming', '--json');
  const d = JSON.parse(r.out) as { rules: Array<{ number: string }> };
  assert.ok(d.rules.some((x) => x.number === '700.2g'));
  const old = JSON.parse((await cli(run, '707.10', '--edition', '2021-06-18', '--incoming', '--json')).out) as { rules: Array<{ number: string }> };
  assert.ok(!old.rules.some((x) => x.number === '700.2g'), 'in 2021-06-18, 700.2g cites 706.10');
});

test('outgoing references are resolved in their edition', async () => {
  const d = JSON.parse((await cli(run, '700.2g', '--edition', '2021-07-23', '--json')).out) as {
    refs: Array<{ target: string; mention: string; resolved: { text: string } | null }>;
  };
  const ref = d.refs.find((x) => x.target === '707.10');
  assert.equal(ref?.mention, '707.10');
  assert.match(ref?.resolved?.text ?? '', /^To copy a spell/);
});

test('dangling references are listed per edition; a missing rule gives the nearest numbers', async () => {
  const d = JSON.parse((await cli(run, '--dangling', '--edition', '2009-07-11', '--json')).out) as {
    count: number;
    dangling: Array<{ target: string; at: string }>;
  };
  assert.equal(d.count, d.dangling.length);
  assert.ok(d.count > 0, 'the 2009-07-11 edition has dangling references');
  const r = await cli(run, '707.99', '--edition', '2021-07-23');
  assert.equal(r.code, 1);
  assert.match(r.err, /no rule 707\.99 in the 2021-07-23 edition; nearest: .*707\.9/);
});

test('refs --stale lists citations whose quoted title names another rule than their target', async () => {
  const d = JSON.parse((await cli(run, '--stale', '--edition', '2009-07-11', '--json')).out) as {
    count: number;
    stale: Array<{ source: string; at: string; target: string; cited: string; title: string }>;
  };
  // the glossary's Banding entry cites 702.20, "Banding", but 702.20 is Rampage in Magic 2010
  const banding = d.stale.find((s) => s.target === '702.20');
  assert.deepEqual([banding?.source, banding?.cited, banding?.title], ['glossary', 'Banding', 'Rampage']);
  assert.equal(d.count, d.stale.length);
  const text = await cli(run, '--dangling', '--edition', '2009-07-11');
  assert.match(text.out, /stale citation/);
  await assert.rejects(cli(run, '--stale', '--dangling'), /exclude each other/);
});
