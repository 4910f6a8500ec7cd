import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTask } from '../../ingest/store/parseTask.js';
import { sha256Hex } from '../../ingest/store/sources.js';
import { CORPUS } from '../engine/corpus.js';

const file = join(CORPUS, 'rulesraker/2021-06-09.txt');

test('a local file is read by the parser itself, and must still have the sha256 it had when first read', async () => {
  const bytes = readFileSync(file);
  const ok = await parseTask({ path: file, bytes: null, size: bytes.length, sha256: sha256Hex(bytes), contentType: null });
  assert.equal(ok.ok && ok.doc.effectiveDate, '2021-06-18');
  const changed = await parseTask({ path: file, bytes: null, size: bytes.length, sha256: '0'.repeat(64), contentType: null });
  assert.deepEqual(changed, { ok: false, source: file, reason: 'changed while being ingested (its sha256 differs from when it was first read)' });
  const gone = await parseTask({ path: `${file}.missing`, bytes: null, size: 0, contentType: null });
  assert.match(gone.ok ? '' : gone.reason, /^cannot read: ENOENT/);
});
