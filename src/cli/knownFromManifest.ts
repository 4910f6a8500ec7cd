import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../core/projectFiles.js';
import type { KnownEdition } from '../query/knownEditions.js';

/** The CR editions data/sources.json knows, for the notice of newer rules in pages and answers (none without the file). */
export async function knownFromManifest(): Promise<KnownEdition[]> {
  const file = join(projectRoot(), 'data', 'sources.json');
  if (!existsSync(file)) return [];
  // (loaded here, in a process that answers: crkb serve's supervisor never reads it)
  const { readManifest } = await import('../../ingest/store/sources.js');
  return readManifest(file)
    .editions.filter((e) => e.family === 'cr')
    .map(({ effectiveDate, setCode, setName }) => ({ effectiveDate, setCode, setName }));
}
