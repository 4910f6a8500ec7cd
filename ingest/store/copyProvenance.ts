import { basename } from 'node:path';
import type { Manifest } from './sources.js';

/** Where a copy of an edition comes from, as stored with it and shown where answers cite their source. */
export interface CopyProvenance {
  /** Its sha256 or its file name matches an official publication the manifest lists. */
  official: boolean;
  /** The official address it was published at, when the manifest knows it (never a local path). */
  url: string | null;
  /** Its place in a known public archive ("mtg-cr/CR-2019-01-25.txt"), when its sha256 is the manifest's. */
  archive: string | null;
  /** Its file name (not its folder: a local path says nothing to anyone else). */
  name: string;
  sha256: string;
  /** Why it is official or not, for the ingest report. */
  why: string;
}

const OFFICIAL_HOST = /^https?:\/\/(?:[a-z0-9-]+\.)*wizards\.com\//i;

function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A file name as published, URL-decoded ("MagicCompRules%2020240917.txt" and "MagicCompRules 20240917.txt" are one name). */
function nameOf(location: string): string {
  return decoded(basename(/^https?:\/\//i.test(location) ? new URL(location).pathname : location));
}

/** The official copies the manifest knows: by sha256 (archive files) and by official file name or address. */
export class OfficialCopies {
  private readonly bySha = new Map<string, { date: string; archive: string; url: string | null }>();
  private readonly byName = new Map<string, { date: string; url: string }>();

  constructor(manifest: Manifest | null) {
    for (const e of manifest?.editions ?? []) {
      const urls = [...e.urls, ...Object.values(e.downloads ?? {}).flat()].filter((u) => OFFICIAL_HOST.test(u));
      for (const u of urls) this.byName.set(nameOf(u), { date: e.effectiveDate, url: u });
      // the official address of the same format as the archive file ("….docx" for a .docx)
      const ext = (p: string): string => /\.[a-z]+$/i.exec(p)?.[0].toLowerCase() ?? '';
      for (const f of e.files) this.bySha.set(f.sha256, { date: e.effectiveDate, archive: f.path, url: urls.find((u) => ext(u) === ext(f.path)) ?? null });
    }
  }

  /** The provenance of a copy read from `location` (a path or an address) with that sha256. */
  provenance(location: string, sha256: string): CopyProvenance {
    const name = nameOf(location);
    const known = this.bySha.get(sha256);
    if (known)
      return {
        official: true,
        url: known.url,
        archive: known.archive,
        name,
        sha256,
        why: `official: its sha256 is the manifest's for ${known.archive} (${known.date})`,
      };
    const named = this.byName.get(name);
    if (named) return { official: true, url: named.url, archive: null, name, sha256, why: `official: named as published for ${named.date} (${named.url})` };
    const url = OFFICIAL_HOST.test(location) ? location : null;
    if (url) return { official: true, url, archive: null, name, sha256, why: `official: downloaded from ${url}` };
    return { official: false, url: null, archive: null, name, sha256, why: 'not official: neither its sha256 nor its name is in the sources manifest' };
  }
}
