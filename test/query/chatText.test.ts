import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SearchHitRecord } from '../../src/core/records.js';
import type { RuleChange } from '../../src/engine/diffEditions.js';
import type { HistoryStep } from '../../src/engine/history.js';
import {
  capitalize,
  clip,
  diffLine,
  editionLine,
  errorText,
  historyStepLine,
  historyStepWords,
  historySummary,
  oneLine,
  searchHitJson,
  searchHitLine,
  searchLines,
  snippetStyle,
} from '../../src/query/chatText.js';
import { QueryError } from '../../src/query/QueryError.js';

const step = (s: Partial<HistoryStep>): HistoryStep => ({
  date: '2021-07-23',
  number: '702.19b',
  text: 'The *controller* of a creature.',
  change: 'changed',
  renumbered: false,
  examplesChanged: false,
  ...s,
});

test('a history step is worded one way: what happened, the new number, the kind of text change, the examples', () => {
  assert.equal(historyStepWords(step({ change: 'added' })), 'first appears');
  assert.equal(historyStepWords(step({ change: 'returned', renumbered: true, previousNumber: '702.18b' })), 'returns after a gap, renumbered from 702.18b');
  assert.equal(
    historyStepWords(step({ renumbered: true, previousNumber: '702.18b', textChange: 'substantive', examplesChanged: true })),
    'renumbered from 702.18b, reworded, examples changed',
  );
  assert.equal(historyStepWords(step({ textChange: 'references' })), 'reference numbers updated');
  assert.equal(historyStepWords(step({ textChange: 'typography' })), 'typography');
  assert.equal(historyStepWords(step({ textChange: 'correction' })), 'reference corrected');
  assert.equal(historyStepWords(step({ examplesChanged: true })), 'examples changed');
  assert.equal(historyStepWords(step({ change: 'unchanged' })), 'unchanged');
  assert.equal(historyStepWords(step({ renumbered: true, previousNumber: 'Dies' }), 'renamed'), 'renamed from Dies');
});

test('a history step as a chat line, Markdown or text with its text', () => {
  const s = step({ textChange: 'substantive' });
  assert.equal(historyStepLine(s, 'markdown'), '- 2021-07-23 **702.19b** reworded');
  assert.equal(historyStepLine(step({ number: '702.19' }), 'markdown'), '- 2021-07-23 **702.19.** unchanged');
  assert.equal(historyStepLine(s, 'text', true), '- 2021-07-23 702.19b reworded: The *controller* of a creature.');
  assert.equal(historyStepLine(s, 'markdown', true), '- 2021-07-23 **702.19b** reworded: The \\*controller\\* of a creature.');
  assert.equal(
    historySummary({ lineage: 1, first: '1999-04-23', last: '2023-02-03', numbers: ['502.9b', '702.19b'], steps: [s, s, s] }),
    'numbered 502.9b → 702.19b; in 3 editions, 1999-04-23 to 2023-02-03',
  );
});

const change = (c: Partial<RuleChange>): RuleChange => ({
  before: { number: '702.18b', text: 'Old [text].' },
  after: { number: '702.19b', text: 'New   [text]\nhere.' },
  renumbered: false,
  textChange: 'substantive',
  typography: false,
  lineage: 1,
  section: '702',
  kinds: ['substantive'],
  ...c,
});

test('a diff line is worded one way: sign, numbers, kind, text (after, else before) on one line', () => {
  assert.equal(diffLine(change({ renumbered: true }), 'text'), '~ 702.18b → 702.19b (reworded) New [text] here.');
  assert.equal(diffLine(change({}), 'text'), '~ 702.19b (reworded) New [text] here.');
  assert.equal(diffLine(change({ renumbered: true, textChange: 'none' }), 'text'), '~ 702.18b → 702.19b (renumbered) New [text] here.');
  assert.equal(diffLine(change({ textChange: 'none', typography: true }), 'text'), '~ 702.19b (typography) New [text] here.');
  assert.equal(diffLine(change({ textChange: 'references' }), 'text'), '~ 702.19b (references) New [text] here.');
  assert.equal(diffLine(change({ before: null, splitFrom: '702.18' }), 'text'), '+ 702.19b (split from 702.18) New [text] here.');
  assert.equal(diffLine(change({ after: null, mergedInto: '702.19' }), 'text'), '- 702.18b (merged into 702.19) Old [text].');
  assert.equal(diffLine(change({ after: null }), 'markdown'), '− **702.18b** Old \\[text\\].', 'a removal is no Markdown list item');
  assert.equal(diffLine(change({ renumbered: true }), 'markdown', 8), '~ **702.18b** → **702.19b** (reworded) New \\[te…');
});

const hit = (h: Partial<SearchHitRecord>): SearchHitRecord =>
  ({
    kind: 'rule',
    textId: 1,
    score: -1,
    rule: { number: '702.19b' },
    exampleIndex: null,
    glossary: null,
    snippet: '…with **trample**…',
    highlighted: '',
    ...h,
  }) as SearchHitRecord;

test('a search hit is placed one way: the number, its example, or the glossary term', () => {
  assert.equal(searchHitLine(hit({}), 'text'), '702.19b …with **trample**…');
  assert.equal(searchHitLine(hit({ kind: 'example', exampleIndex: 1 }), 'markdown'), '- **702.19b (example 2)** …with **trample**…');
  assert.equal(
    searchHitLine(hit({ kind: 'glossary', rule: null, glossary: { term: 'Trample_Over' } as SearchHitRecord['glossary'] }), 'markdown'),
    '- **Glossary: Trample\\_Over** …with **trample**…',
  );
  assert.deepEqual(searchHitJson(hit({ kind: 'example', exampleIndex: 0 })), {
    kind: 'example',
    number: '702.19b',
    term: null,
    exampleIndex: 0,
    snippet: '…with **trample**…',
  });
  assert.deepEqual(searchLines([hit({}), hit({ rule: { number: '702.19c' } as SearchHitRecord['rule'] })], 'trample', '2021-07-23', 'text'), [
    '702.19b …with **trample**…',
    '702.19c …with **trample**…',
  ]);
  assert.deepEqual(searchLines([], 'no `such`  thing', '2021-07-23', 'markdown'), ["Nothing in the 2021-07-23 edition matches `no 'such' thing`."]);
  assert.deepEqual(searchLines([], 'x'.repeat(200), '2021-07-23', 'text'), [`Nothing in the 2021-07-23 edition matches "${'x'.repeat(80)}".`]);
});

test('an error as a chat line, with the nearest candidates; the edition line', () => {
  const e = new QueryError('NOT_FOUND', 'no rule 702.91 in the 2021-07-23 edition', { suggestions: ['702.19', '702.9_1'] });
  assert.equal(errorText(e, 'text'), 'no rule 702.91 in the 2021-07-23 edition. Did you mean: 702.19, 702.9_1?');
  assert.equal(errorText(e, 'markdown'), 'no rule 702.91 in the 2021-07-23 edition. Did you mean: 702.19, 702.9\\_1?');
  assert.equal(errorText({ message: 'the server is busy' }, 'text'), 'the server is busy.');
  assert.equal(editionLine('2021-07-23', 'text'), '(CR 2021-07-23)');
  assert.equal(editionLine('2021-07-23', 'markdown'), '*CR 2021-07-23*');
});

test('texts cut to fit, on one line; a message as a sentence; how snippets are marked per format', () => {
  assert.equal(clip('abcdef', 4), 'abc…');
  assert.equal(clip('abcd', 4), 'abcd');
  assert.equal(clip('a\nb', 10), 'a\nb');
  assert.equal(oneLine('a\n  b\tc', 10), 'a b c');
  assert.equal(oneLine('a\n  bcdef', 4), 'a b…');
  assert.equal(capitalize('no rule 999.9'), 'No rule 999.9');
  assert.deepEqual(snippetStyle('json').marks, { open: '<b>', close: '</b>' });
  assert.equal(snippetStyle('json').escape!('<a> "q"'), '&lt;a&gt; "q"');
  assert.equal(snippetStyle('markdown').escape!('*x*'), '\\*x\\*');
  assert.equal(snippetStyle('text').escape, undefined);
});
