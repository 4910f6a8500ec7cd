import { addDays } from '../../src/core/daysBetween.js';
import type { Manifest } from './sources.js';

/** Where Wizards publishes the rules; manifest addresses under it follow a configured base URL. */
export const OFFICIAL_BASE = 'https://media.wizards.com';

/** The download servers cannot be reached at all (as opposed to a file that is not there). */
export class NoNetworkError extends Error {
  override name = 'NoNetworkError';
}

/** A published file of an edition newer than the newest stored one. */
export interface NewEdition {
  /** The date the manifest or the file name gives (the document's own date decides once parsed). */
  date: string;
  url: string;
  /** sha256 the manifest knows for it, if any. */
  sha256?: string;
}

/** What to look for and where. */
export interface FindOptions {
  manifest: Manifest | null;
  /** Effective date of the newest stored edition (null: none stored). */
  newest: string | null;
  /** Base URL standing in for https://media.wizards.com (tests serve the corpus locally). */
  baseUrl: string;
  /** Last day whose official address pattern is tried (YYYY-MM-DD). */
  until: string;
}

/** The official address of a day's text file: https://media.wizards.com/YYYY/downloads/MagicCompRules%20YYYYMMDD.txt. */
function officialTextUrl(baseUrl: string, date: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${date.slice(0, 4)}/downloads/MagicCompRules%20${date.replace(/-/g, '')}.txt`;
}

function rebase(url: string, baseUrl: string): string {
  return url.startsWith(OFFICIAL_BASE + '/') ? baseUrl.replace(/\/+$/, '') + url.slice(OFFICIAL_BASE.length) : url;
}

function extensionOf(location: string): string {
  return /\.[a-z0-9]+$/i.exec(location)?.[0].toLowerCase() ?? '';
}

/**
 * Whether a file is published at `url` (HEAD; 404 and other refusals: no). Throws NoNetworkError when
 * nothing answers twice: a request that fails is sent once more, on a new connection, since a
 * kept-alive connection the server closes just as it is reused fails once without saying anything
 * about the network.
 */
async function exists(url: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      let res = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(20_000) });
      if (res.status === 405 || res.status === 501) {
        res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(20_000) });
        await res.body?.cancel();
      }
      return res.ok;
    } catch (e) {
      if (attempt < 2) continue;
      const cause = (e as Error & { cause?: { code?: string; message?: string } }).cause;
      throw new NoNetworkError(`cannot reach ${new URL(url).origin} (${cause?.code ?? cause?.message ?? (e as Error).message})`);
    }
  }
}

/**
 * Looks for editions newer than the newest stored one: first the manifest's newer editions (each
 * at the first of its addresses that answers, text before .docx), then the official address
 * pattern for every day after the newest edition known to either, through `until`.
 */
export async function findNewEditions(opts: FindOptions): Promise<{ found: NewEdition[]; tried: number }> {
  const found: NewEdition[] = [];
  let tried = 0;
  const newer = (opts.manifest?.editions ?? [])
    .filter((e) => e.family === 'cr' && (opts.newest === null || e.effectiveDate > opts.newest))
    .sort((a, b) => (a.effectiveDate < b.effectiveDate ? -1 : 1));
  let newestKnown = opts.newest;
  for (const ed of newer) {
    if (newestKnown === null || ed.effectiveDate > newestKnown) newestKnown = ed.effectiveDate;
    for (const url of [...ed.urls, ...(ed.downloads?.docx ?? [])].map((u) => rebase(u, opts.baseUrl))) {
      tried++;
      if (!(await exists(url))) continue;
      // a known sha256 holds only for a file of the same format (2023-02-03's is its .docx, not the .txt)
      const same = new Set(ed.files.filter((f) => extensionOf(f.path) === extensionOf(url)).map((f) => f.sha256));
      const sha256 = same.size === 1 ? [...same][0] : undefined;
      found.push({ date: ed.effectiveDate, url, ...(sha256 ? { sha256 } : {}) });
      break;
    }
  }
  if (newestKnown === null) return { found, tried };
  for (let day = addDays(newestKnown, 1); day <= opts.until; day = addDays(day, 1)) {
    const url = officialTextUrl(opts.baseUrl, day);
    tried++;
    if (await exists(url)) found.push({ date: day, url });
  }
  return { found, tried };
}
