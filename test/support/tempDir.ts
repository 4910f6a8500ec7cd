import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new temporary directory, removed when the test (or, at top level, the file) that made it ends. */
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}
