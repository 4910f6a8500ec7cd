import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { repeatedLines } from '../../ingest/parse/repeatedLines.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { expandInputs } from '../../ingest/store/sources.js';

const shared = resolve(process.cwd(), '../shared');

test('repeated lines are counted by their trimmed text, blank lines left out', () => {
  assert.deepEqual(repeatedLines('a\n\n b\na \n\nc\n'), { lines: 4, repeated: 2 });
  assert.deepEqual(repeatedLines('a\na\nb\nb\n'), { lines: 4, repeated: 4 });
  assert.deepEqual(repeatedLines(''), { lines: 0, repeated: 0 });
});

test('a file with every line twice, or its whole text twice, is rejected by name; the others are stored', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crkb-doubled-'));
  try {
    const source = join(shared, 'corpus/rulesraker/2003-07-01.txt');
    const text = decodeBuffer(readFileSync(source)).text;
    writeFileSync(
      join(dir, 'each-line-twice.txt'),
      text
        .split('\n')
        .flatMap((l) => [l, l])
        .join('\n'),
    );
    writeFileSync(join(dir, 'text-twice.txt'), text + '\n' + text);
    const good = join(shared, 'corpus/rulesraker/2003-03-15.txt');
    const r = await runIngest({ inputs: expandInputs([join(dir, 'each-line-twice.txt'), join(dir, 'text-twice.txt'), good]), dbFile: join(dir, 'x.db') });
    assert.deepEqual(
      r.editions.map((e) => e.effectiveDate),
      ['2003-03-15'],
    );
    assert.deepEqual(
      r.rejected.map((x) => x.source),
      [join(dir, 'each-line-twice.txt'), join(dir, 'text-twice.txt')],
    );
    for (const x of r.rejected) assert.match(x.reason, /^duplicated text: (\d+) of its \1 non-blank lines occur more than once/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('published texts and the seeds repeat far fewer lines than a duplicated copy', () => {
  // the corpus files with the most repeated lines (a fifth, a tenth), and every seed (fragments: small counts)
  const files = ['corpus/mtg-cr/CR-1999-04-21.txt', 'corpus/mtg-cr/CR-2002-10-07.txt', 'corpus/rulesraker/2003-03-15.txt'].map((f) => join(shared, f));
  files.push(...readdirSync(join(shared, 'seeds')).map((f) => join(shared, 'seeds', f)));
  for (const f of files) {
    const r = repeatedLines(decodeBuffer(readFileSync(f)).text);
    assert.ok(r.repeated < 0.5 * r.lines, `${f}: ${r.repeated} of ${r.lines}`);
  }
});
