import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EditionResolver } from '../../src/db/EditionResolver.js';
import { openWritableDb } from '../../src/db/openDb.js';

function db() {
  const d = openWritableDb(':memory:');
  const ins = d.prepare(`INSERT INTO editions (family, effective_date, official, label) VALUES (?, ?, ?, ?)`);
  ins.run('cr', '2009-07-11', 1, '');
  ins.run('cr', '2021-07-23', 1, '');
  ins.run('cr', '2022-11-18', 0, 'unofficial:ab12cd34');
  ins.run('rulings', '1999-04-21', 1, '');
  return d;
}

test('latest, an effective date, a date in force and an unofficial label', () => {
  const r = new EditionResolver(db());
  const at = (arg: string | null, family = 'cr') => {
    const x = r.resolve(arg, family);
    return x.problem ?? `${x.row.effectiveDate}${x.row.label ? ` ${x.row.label}` : ''}${x.exact ? ' exact' : ''}`;
  };
  assert.equal(at(null), '2021-07-23', 'unofficial editions are never "latest"');
  assert.equal(at(' Latest '), '2021-07-23');
  assert.equal(at('2009-07-11'), '2009-07-11 exact');
  assert.equal(at('2020-01-01'), '2009-07-11');
  assert.equal(at('2030-01-01'), '2021-07-23');
  assert.equal(at('unofficial:ab12cd34'), '2022-11-18 unofficial:ab12cd34 exact');
  assert.equal(at('latest', 'rulings'), '1999-04-21');
});

test('each wrong argument says what is wrong', () => {
  const r = new EditionResolver(db());
  assert.equal(r.resolve('2001-01-01').problem, 'no cr edition was in force on 2001-01-01: the earliest stored is 2009-07-11');
  assert.match(r.resolve('2021-02-30').problem ?? '', /"2021-02-30" is not a date/);
  assert.match(r.resolve('yesterday').problem ?? '', /"yesterday" is not a date/);
  assert.equal(r.resolve('unofficial:ffffffff').problem, 'no unofficial cr edition is labelled "unofficial:ffffffff"');
  assert.equal(new EditionResolver(openWritableDb(':memory:')).resolve(null).problem, 'no cr editions are stored');
});
