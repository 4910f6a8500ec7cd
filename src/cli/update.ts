import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findNewEditions, NoNetworkError, OFFICIAL_BASE } from '../../ingest/store/findNewEditions.js';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { runIngest } from '../../ingest/store/runIngest.js';
import { readManifest, type InputRef, type Manifest } from '../../ingest/store/sources.js';
import { Catalog } from '../db/Catalog.js';
import { projectRoot } from '../core/projectFiles.js';
import { openReadOnlyDb } from '../db/openDb.js';
import { KnowledgeBase } from '../query/KnowledgeBase.js';
import { releaseNotes } from './diff.js';
import { formatReport } from './ingest.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { existingDbFile } from './withKb.js';
import { webhooksFromEnv } from './webhooksFromEnv.js';

export const usage = `Usage: crkb update [--db FILE] [--manifest FILE] [--base-url URL] [--until DATE]

Looks for a Comprehensive Rules edition newer than the newest stored one: the
sources manifest's newer editions first, then the official address pattern
(MagicCompRules%20YYYYMMDD.txt) for every day after the newest known edition,
through --until (default today). Downloads what it finds, verifies it (checksum
when the manifest knows one, a complete edition when parsed), ingests it and
prints the release notes of each new edition against the one before it. With
CRKB_WEBHOOKS set, tells them of the newest new edition (see crkb serve --help).

  --base-url URL  stands in for ${OFFICIAL_BASE} (default $CRKB_RULES_BASE_URL or that)

Exit status: 0 when up to date or updated, 2 when a download was rejected,
3 when the download server cannot be reached.`;

/** `crkb update`: find, download, ingest and describe editions newer than the newest stored. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(
    argv,
    { db: { type: 'string' }, manifest: { type: 'string' }, 'base-url': { type: 'string' }, until: { type: 'string' } },
    usage,
    false,
  );
  const dbFile = existingDbFile(values.db, usage);
  const hooks = await webhooksFromEnv(dbFile, usage, (line) => console.error(line));
  const baseUrl = values['base-url'] ?? process.env.CRKB_RULES_BASE_URL ?? OFFICIAL_BASE;
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new UsageError(`--base-url ${baseUrl}: expected an http(s) URL`, usage);
  const until = values.until ?? new Date().toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(until) || Number.isNaN(Date.parse(until))) throw new UsageError(`--until ${until}: expected a date YYYY-MM-DD`, usage);
  const manifestFile = values.manifest ?? join(projectRoot(), 'data', 'sources.json');
  let manifest: Manifest | null = null;
  try {
    if (existsSync(manifestFile) || values.manifest) manifest = readManifest(manifestFile);
  } catch (e) {
    if (e instanceof IngestError) throw new UsageError(e.message, usage);
    throw e;
  }
  const newest = storedDates(dbFile).at(-1) ?? null;
  let search: Awaited<ReturnType<typeof findNewEditions>>;
  try {
    search = await findNewEditions({ manifest, newest, baseUrl, until });
  } catch (e) {
    if (!(e instanceof NoNetworkError)) throw e;
    console.error(`crkb update: no network: ${e.message}`);
    return 3;
  }
  if (search.found.length === 0) {
    process.stdout.write(`up to date: no edition newer than ${newest ?? '(none stored)'} (${search.tried} addresses tried through ${until})\n`);
    return 0;
  }
  const inputs = search.found.map((f): InputRef => ({ kind: 'url', location: f.url, ...(f.sha256 ? { sha256: f.sha256 } : {}) }));
  const report = await runIngest({ inputs, dbFile, manifest });
  process.stdout.write(formatReport(report) + '\n');
  const added = report.editions.filter((e) => e.family === 'cr' && e.status === 'added').map((e) => e.effectiveDate);
  if (added.length > 0) process.stdout.write('\n' + notesFor(dbFile, added) + '\n');
  if (hooks && added.length > 0) await hooks.seen({ edition: added.sort().at(-1)!, previous: newest, sha256: null, source: 'update' }, { news: true });
  return report.rejected.length > 0 ? 2 : 0;
}

/** Effective dates of the stored official CR editions, oldest first. */
function storedDates(dbFile: string): string[] {
  const db = openReadOnlyDb(dbFile);
  try {
    return new Catalog(db)
      .officialEditions()
      .filter((e) => e.family === 'cr')
      .map((e) => e.effectiveDate)
      .sort();
  } finally {
    db.close();
  }
}

/** Release notes of each added edition against the official edition before it. */
function notesFor(dbFile: string, added: string[]): string {
  const kb = KnowledgeBase.open(dbFile);
  try {
    const editions = kb.officialEditions('cr');
    const out: string[] = [];
    for (const date of added) {
      const k = editions.findIndex((e) => e.effectiveDate === date);
      if (k <= 0) continue;
      out.push(releaseNotes(kb.diff(editions[k - 1]!, editions[k]!, { segments: true })));
    }
    return out.join('\n\n');
  } finally {
    kb.close();
  }
}
