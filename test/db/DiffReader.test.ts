import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiffReader } from '../../src/db/DiffReader.js';
import { openWritableDb } from '../../src/db/openDb.js';

function dbWithTexts(bodies: string[]): ReturnType<typeof openWritableDb> {
  const db = openWritableDb(':memory:');
  bodies.forEach((body, k) => {
    db.prepare('INSERT INTO texts (id, h, norm_h, body) VALUES (?, ?, ?, ?)').run(k + 1, 1000 + k, 2000 + k, body);
    db.prepare(`INSERT INTO rule_versions (id, number, kind, text_id, examples) VALUES (?, ?, 'rule', ?, ?)`).run(
      10 + k,
      `100.${k + 1}`,
      k + 1,
      k === 0 ? '[2]' : '[]',
    );
  });
  return db;
}

test('versions: texts, hashes and example ids by version id, empty texts kept apart', () => {
  const db = dbWithTexts(['First rule.', '', 'Third “rule” — with non-ASCII.']);
  const v = new DiffReader(db).versions([12, 10, 11]);
  assert.deepEqual(
    [10, 11, 12].map((id) => v.get(id)),
    [
      { textId: 1, text: 'First rule.', normHash: 2000, exampleIds: '[2]' },
      { textId: 2, text: '', normHash: 2001, exampleIds: '[]' },
      { textId: 3, text: 'Third “rule” — with non-ASCII.', normHash: 2002, exampleIds: '[]' },
    ],
  );
  assert.equal(new DiffReader(db).versions([]).size, 0);
});

test('versions: a text holding the NUL the texts are joined by still comes back whole', () => {
  const db = dbWithTexts(['a\0b', 'c']);
  const v = new DiffReader(db).versions([10, 11]);
  assert.deepEqual([v.get(10)?.text, v.get(11)?.text], ['a\0b', 'c']);
});
