import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { citationsMarkdown } from '../../src/query/chatText.js';
import { checkCitations } from '../../src/query/checkCitations.js';
import { KnowledgeBase } from '../../src/query/KnowledgeBase.js';
import { QueryError } from '../../src/query/QueryError.js';
import { fixtureDbWithLineage } from '../server/fixtures.js';

const kb = new KnowledgeBase(fixtureDbWithLineage());
after(() => kb.close());

const TEXT = 'As rule 706.10 says, copies go on the stack; see 700.2g, 704.5k and 706.1 (Copying Objects). Rule 999.9 is made up.';

test('citations found in a text: moved with the rule, same, reference-only change, unknown', () => {
  const r = checkCitations(kb, { text: TEXT, asOf: '2021-06-18' });
  assert.equal(r.asOf.effectiveDate, '2021-06-18');
  assert.equal(r.to.effectiveDate, '2021-07-23');
  const by = new Map(r.citations.map((c) => [c.cited, c]));
  assert.deepEqual([...by.keys()], ['706.10', '700.2g', '704.5k', '706.1', '999.9']);
  const copy = by.get('706.10')!;
  assert.equal(copy.status, 'moved');
  assert.deepEqual(copy.now, { number: '707.10', text: copy.then!.text });
  assert.equal(copy.textChange, 'none');
  // 700.2g now cites 707.10 instead of 706.10: the same rule, only the reference number changed
  assert.equal(by.get('700.2g')!.status, 'changed');
  assert.equal(by.get('700.2g')!.textChange, 'references');
  assert.equal(by.get('704.5k')!.status, 'same');
  assert.equal(by.get('706.1')!.title, 'Copying Objects');
  assert.equal(by.get('706.1')!.titleMatches, true);
  assert.equal(by.get('999.9')!.status, 'unknown');
  assert.equal(by.get('999.9')!.then, null);
});

test('a renumbered rule is followed across editions; a rule that left is gone since the first edition without it', () => {
  const r = checkCitations(kb, { text: 'rule 502.9b ("Trample"), rule 502.9a (Flying) and rule 500.1', asOf: '2008-10-01', to: '2021-06-18' });
  const [b, a, gone] = r.citations;
  assert.equal(b!.status, 'moved');
  assert.equal(b!.now!.number, '702.19b');
  assert.equal(b!.textChange, 'substantive');
  assert.equal(b!.titleMatches, true);
  assert.equal(a!.titleMatches, false);
  assert.equal(gone!.status, 'gone');
  assert.equal(gone!.now, null);
  assert.equal(gone!.goneSince, '2021-06-18');
});

test('numbers instead of a text, and a Markdown report', () => {
  const r = checkCitations(kb, { numbers: ['706.10', ' 702.19. '], asOf: '2021-06-18' });
  assert.deepEqual(
    r.citations.map((c) => [c.cited, c.status]),
    [
      ['706.10', 'moved'],
      ['702.19', 'same'],
    ],
  );
  const md = citationsMarkdown(r);
  assert.match(md, /^Citations written against the 2021-06-18 edition, checked in the 2021-07-23 edition\./);
  assert.match(md, /\n\| 706\.10 \| moved \| 707\.10\. \| To copy a spell/);
});

test('bad input names the argument', () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof QueryError);
      return `${e.code} ${e.details.argument}`;
    }
    return 'no error';
  };
  assert.equal(
    code(() => checkCitations(kb, { text: 'x', asOf: null })),
    'BAD_INPUT asOf',
  );
  assert.equal(
    code(() => checkCitations(kb, { text: 'x', numbers: ['1'], asOf: '2021-06-18' })),
    'BAD_INPUT text',
  );
  assert.equal(
    code(() => checkCitations(kb, { numbers: ['banana'], asOf: '2021-06-18' })),
    'BAD_INPUT numbers',
  );
  assert.equal(
    code(() => checkCitations(kb, { text: 'x', asOf: '1990-01-01' })),
    'BAD_INPUT asOf',
  );
  assert.equal(
    code(() => checkCitations(kb, { text: 'x'.repeat(200_001), asOf: '2021-06-18' })),
    'BAD_INPUT text',
  );
});
