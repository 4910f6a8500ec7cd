import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { currentPlace, formerNumber, sameRuleIn } from '../../src/query/currentPlace.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { QueryError } from '../../src/query/QueryError.js';
import { fixtureDbWithLineage } from '../server/fixtures.js';

// The fixture: rule 706.10 of 2021-06-18 is 707.10 on 2021-07-23 (section 706 renumbered to 707).
const kb = new KnowledgeBase(fixtureDbWithLineage());
after(() => kb.close());
const edition = (d: string) => kb.resolveEdition(d).edition;

test('a number the edition has is where it is', () => {
  const p = currentPlace(kb, '707.10', edition('2021-07-23'));
  assert.equal(p.edition.effectiveDate, '2021-07-23');
  assert.equal(p.rule.number, '707.10');
});

test('a number renumbered away is followed to the last edition that has it', () => {
  const latest = edition('2021-07-23');
  assert.equal(kb.rule(latest.id, '706.10'), null);
  const p = currentPlace(kb, '706.10', latest);
  assert.equal(p.edition.effectiveDate, '2021-06-18');
  assert.equal(p.rule.number, '706.10');
  // and the same rule is now 707.10
  assert.equal(sameRuleIn(kb, p.rule, latest)?.number, '707.10');
  assert.equal(sameRuleIn(kb, p.rule, p.edition), p.rule);
});

test('a number no edition has is NOT_FOUND with the nearest numbers of the edition asked', () => {
  try {
    currentPlace(kb, '707.99', edition('2021-07-23'));
    assert.fail('expected NOT_FOUND');
  } catch (e) {
    assert.ok(e instanceof QueryError);
    assert.equal(e.code, 'NOT_FOUND');
    assert.equal(e.message, 'no rule 707.99 in any stored edition');
    const near = e.details.suggestions ?? [];
    assert.ok(near.length > 0 && near.every((n) => n.startsWith('707.') && kb.rule(edition('2021-07-23').id, n)), near.join(' '));
  }
});

test('formerNumber: what the lineage says of a number the edition lacks, before or after it', () => {
  const f = formerNumber(kb, '706.10', edition('2021-07-23'))!;
  assert.equal(f.then.effectiveDate, '2021-06-18');
  assert.equal(f.earlier, true);
  assert.equal(f.now?.number, '707.10');
  assert.equal(f.goneSince, null);
  // a number that came later: the first edition with it
  const later = formerNumber(kb, '707.10', edition('2008-10-01'))!;
  assert.equal(later.earlier, false);
  assert.equal(later.then.effectiveDate, '2021-07-23');
  assert.equal(formerNumber(kb, '707.10', edition('2021-07-23')), null, 'the edition has it');
  assert.equal(formerNumber(kb, '707.99', edition('2021-07-23')), null, 'no edition has it');
});
