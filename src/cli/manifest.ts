import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildManifest, type ManifestInputs, type ScannedFile } from '../../ingest/store/buildManifest.js';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { parseInput } from '../../ingest/store/parseInput.js';
import { archiveRelative, expandInputs, labelDateOf, readLocalInput } from '../../ingest/store/sources.js';
import { projectRoot } from '../core/projectFiles.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';

export const usage = `Usage: crkb manifest --archive DIR [--out FILE]

Regenerates the sources manifest (default data/sources.json) from an archive
folder laid out like ../shared/corpus: every file (text or Word document) is
parsed for the edition it states, hashed, and joined with mtg-cr/url.txt,
rulesraker/metadata.json, set-releases.json when present, and data/published.json
(editions and irregular file names the archives do not record).`;

function readJson<T>(file: string): T | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null;
}

/** `crkb manifest`: rebuild data/sources.json from an archive folder. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { archive: { type: 'string' }, out: { type: 'string' } }, usage, false);
  if (!values.archive) throw new UsageError('--archive is required', usage);
  const archive = resolve(values.archive);
  if (!existsSync(archive)) throw new UsageError(`--archive ${values.archive}: no such folder`, usage);
  const files: ScannedFile[] = [];
  for (const ref of expandInputs([archive])) {
    try {
      const input = readLocalInput(ref);
      const { doc } = await parseInput(ref.location, input.bytes);
      const date = doc.effectiveDate ?? labelDateOf(ref.location);
      if (!doc.complete || date === null) continue;
      files.push({
        path: archiveRelative(archive, ref.location),
        sha256: input.sha256,
        labelDate: labelDateOf(ref.location),
        family: doc.family,
        effectiveDate: date,
      });
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      console.error(`skipped ${e.message}`);
    }
  }
  const urlFile = join(archive, 'mtg-cr', 'url.txt');
  const inputs: ManifestInputs = {
    files,
    officialUrls: existsSync(urlFile)
      ? readFileSync(urlFile, 'utf8')
          .split(/\r?\n/)
          .filter((l) => /^https?:/.test(l))
      : [],
    metadata: readJson(join(archive, 'rulesraker', 'metadata.json')),
    setReleases: readJson(join(archive, 'set-releases.json')),
    published: readJson(join(projectRoot(), 'data', 'published.json')),
  };
  const manifest = buildManifest(inputs);
  const out = values.out ?? join(projectRoot(), 'data', 'sources.json');
  writeFileSync(out, JSON.stringify(manifest, null, 1) + '\n');
  console.log(`${manifest.editions.length} editions, ${files.length} files -> ${out}`);
  return 0;
}
