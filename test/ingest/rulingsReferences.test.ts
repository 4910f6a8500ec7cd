import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rulingsReferences } from '../../ingest/parse/rulingsReferences.js';

test('references into the document, into CR rules and to CR editions, with spans', () => {
  const text = 'Due to Rule A.8.11 and A.8.12, see Rule E.13.Ruling.13. (See rule 601.2b.) See rule 702. [CompRules 1999/11/01] See Rule K.3 .';
  const refs = rulingsReferences(text);
  assert.deepEqual(
    refs.map((r) => [r.kind, r.target]),
    [
      ['rulings', 'A.8.11'],
      ['rulings', 'A.8.12'],
      ['rulings', 'E.13.Ruling.13'],
      ['cr', '601.2b'],
      ['cr', '702'],
      ['cr-edition', '1999-11-01'],
      ['rulings', 'K.3'],
    ],
  );
  for (const r of refs) {
    const span = text.slice(r.start, r.end);
    if (r.kind === 'cr-edition') assert.equal(span, '[CompRules 1999/11/01]');
    else assert.equal(span, r.target);
  }
});

test('dates, costs and citations are not references', () => {
  assert.deepEqual(rulingsReferences("[D'Angelo 02/03/98] pay 20 mana (5*(1+3)) on 1999/04/10 at 3.5 rate"), []);
  assert.deepEqual(
    rulingsReferences('[CompRules 11/01/99]').map((r) => r.target),
    ['1999-11-01'],
  );
});
