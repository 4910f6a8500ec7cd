import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this module's location (works from src/ and dist/src/). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      readFileSync(join(dir, 'package.json'));
      return dir;
    } catch {
      dir = dirname(dir);
    }
  }
  throw new Error('cannot find the project root (package.json) above ' + fileURLToPath(import.meta.url));
}

/** Directory holding schema/*.sql and schema/*.graphql. */
export function schemaDir(): string {
  return join(projectRoot(), 'schema');
}
