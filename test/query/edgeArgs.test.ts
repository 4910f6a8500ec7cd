import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countArg, formatArg, oneParam, requiredArg, ruleNumberArg, ruleOrRangeArg, scopeArg } from '../../src/query/edgeArgs.js';
import { QueryError } from '../../src/query/QueryError.js';

/** The BAD_INPUT error `f` throws: its message and the argument it names. */
function badInput(f: () => unknown): { message: string; argument: string | undefined } {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof QueryError, String(e));
    assert.equal(e.code, 'BAD_INPUT');
    return { message: e.message, argument: e.details.argument };
  }
  assert.fail('expected a BAD_INPUT QueryError');
}

test("a user's rule number: every tolerance an edge accepted, normalized; anything else names the argument", () => {
  assert.equal(ruleNumberArg('702.19b'), '702.19b');
  assert.equal(ruleNumberArg(' CR 702.19B. '), '702.19b');
  assert.equal(ruleNumberArg('rule 704.5aa'), '704.5aa');
  assert.equal(ruleNumberArg('E.13.Ruling.3', 'NUMBER', 'rulings'), 'E.13.Ruling.3');
  assert.deepEqual(
    badInput(() => ruleNumberArg('abc')),
    { message: '"abc" is not a rule number (like 702.19b)', argument: 'number' },
  );
  assert.match(badInput(() => ruleNumberArg('x'.repeat(500), 'numbers')).message, /^"x{40}" is not a rule number/);
  assert.equal(badInput(() => ruleNumberArg('702.19b', 'NUMBER', 'rulings')).argument, 'NUMBER');
  assert.match(badInput(() => ruleNumberArg('702.19b', 'NUMBER', 'rulings')).message, /Rulings Summaries number/);
});

test('a rule number or a range, as a lookup reads it', () => {
  assert.equal(ruleOrRangeArg('601.2a-h'), '601.2a-h');
  assert.equal(ruleOrRangeArg('CR 702.19b'), 'CR 702.19b');
  assert.deepEqual(
    badInput(() => ruleOrRangeArg('trample', 'NUMBER')),
    { message: '"trample" is not a rule number (like 702.19b)', argument: 'NUMBER' },
  );
});

test('a scope is a part, section or rule; blank is no scope', () => {
  assert.equal(scopeArg('702'), '702');
  assert.equal(scopeArg(' 702.19. '), '702.19');
  assert.equal(scopeArg('7'), '7');
  assert.equal(scopeArg(undefined), null);
  assert.equal(scopeArg('  '), null);
  assert.deepEqual(
    badInput(() => scopeArg('70x', '--section')),
    {
      message: '"70x" is not a part (7), section (702) or rule (702.19)',
      argument: '--section',
    },
  );
  assert.equal(badInput(() => scopeArg('70')).argument, 'section');
});

test('a format among those allowed; md is markdown', () => {
  assert.equal(formatArg(undefined, ['json', 'text', 'markdown'], 'json'), 'json');
  assert.equal(formatArg('md', ['json', 'text', 'markdown'], 'json'), 'markdown');
  assert.equal(formatArg('text', ['json', 'text', 'markdown'], 'json'), 'text');
  assert.deepEqual(
    badInput(() => formatArg('xml', ['json', 'text', 'markdown'], 'json')),
    {
      message: 'format must be json, text or markdown, not "xml"',
      argument: 'format',
    },
  );
  assert.equal(badInput(() => formatArg('text', ['json', 'markdown'], 'json')).message, 'format must be json or markdown, not "text"');
});

test('a count within its bounds, the fallback when not given', () => {
  const limit = { argument: 'limit', min: 1, max: 50, fallback: 10 };
  assert.equal(countArg(undefined, limit), 10);
  assert.equal(countArg('50', limit), 50);
  assert.equal(countArg('1', limit), 1);
  for (const bad of ['0', '51', '2.5', 'ten', '']) {
    assert.deepEqual(
      badInput(() => countArg(bad, limit)),
      { message: `limit must be a whole number from 1 to 50, not "${bad}"`, argument: 'limit' },
      bad,
    );
  }
});

test('a required text and a parameter given once', () => {
  assert.equal(requiredArg(' trample ', 'q'), ' trample ');
  assert.deepEqual(
    badInput(() => requiredArg('  ', 'q')),
    { message: 'the "q" parameter is required', argument: 'q' },
  );
  assert.equal(badInput(() => requiredArg(undefined, 'term', 'option')).message, 'the "term" option is required');
  assert.equal(oneParam({ q: 'x' }, 'q'), 'x');
  assert.equal(oneParam({}, 'q'), undefined);
  assert.deepEqual(
    badInput(() => oneParam({ q: ['a', 'b'] }, 'q')),
    { message: 'give the "q" parameter once', argument: 'q' },
  );
});
