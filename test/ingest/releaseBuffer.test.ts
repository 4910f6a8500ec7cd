import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { releaseBuffer } from '../../ingest/store/releaseBuffer.js';

test('a released buffer is emptied and its memory freed, though it is still referenced (no garbage collection could)', async () => {
  const bytes = new Uint8Array(64 * 1024 * 1024).fill(1);
  const before = process.memoryUsage().arrayBuffers;
  releaseBuffer(bytes);
  assert.equal(bytes.byteLength, 0);
  // the first release waits for the sink's other end to close
  await sleep(50);
  assert.ok(before - process.memoryUsage().arrayBuffers >= 60 * 1024 * 1024, 'the 64 MB are given back');
});

test('a view on part of a buffer is left as it is (the rest of the buffer may be in use)', () => {
  const whole = new Uint8Array(1024);
  const part = whole.subarray(16);
  releaseBuffer(part);
  assert.equal(part.byteLength, 1008);
  assert.equal(whole.byteLength, 1024);
});
