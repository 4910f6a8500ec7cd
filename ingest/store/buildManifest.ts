import { daysBetween } from '../../src/core/daysBetween.js';
import type { Manifest, ManifestEdition, ManifestFile } from './sources.js';
import type { DocumentFamily } from '../../src/core/types.js';

/** A local archive file whose edition is known (from parsing it). */
export interface ScannedFile extends ManifestFile {
  family: DocumentFamily;
  effectiveDate: string;
}

/** Inputs the manifest is built from, as read from the archive folders. */
export interface ManifestInputs {
  files: ScannedFile[];
  /** Lines of mtg-cr/url.txt. */
  officialUrls: string[];
  /** rulesraker/metadata.json, parsed. */
  metadata: {
    KnownExistingDates?: string[];
    URLFormats?: { Available?: string[] };
    FoundFiles?: Array<{ Date: string; Format: string; OriginalURL?: string; Source?: string }>;
    /** Every file the archive knows of, by label date and format, with its official address when known. */
    Rules?: Array<{ Date: string; Format: string; URL?: string | null }>;
  } | null;
  /** data/published.json: editions published beyond what the archives know, irregular file names, and sets the archives do not record. */
  published?: { editions: Array<{ effectiveDate: string; urls?: string[]; setCode?: string | null; setName?: string | null }> } | null;
  /** set-releases.json, parsed. */
  setReleases: { releases: Array<{ setCode: string; setName: string; publishedOn: string }> } | null;
}

/**
 * The dates an official download address may name: "...%2020221118.txt" is
 * unambiguous; six digits ("_031503", "041001") were written both as MMDDYY
 * and as YYMMDD, so both readings are returned, MMDDYY first.
 */
export function datesOfUrl(url: string): string[] {
  const m = /(\d+)(?=[^0-9/]*\.\w+$)/.exec(url);
  if (!m) return [];
  const digits = m[1]!;
  const valid = (d: string): boolean => /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(d) && !Number.isNaN(Date.parse(d));
  const century = (yy: string): string => (Number(yy) > 80 ? '19' : '20') + yy;
  let dates: string[] = [];
  if (digits.length >= 8) {
    const d = digits.slice(-8);
    dates = [`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`];
  } else if (digits.length === 6) {
    dates = [
      `${century(digits.slice(4))}-${digits.slice(0, 2)}-${digits.slice(2, 4)}`,
      `${century(digits.slice(0, 2))}-${digits.slice(2, 4)}-${digits.slice(4)}`,
    ];
  }
  return dates.filter(valid);
}

/** Builds the sources manifest: every known edition, its files, download addresses and set. */
export function buildManifest(input: ManifestInputs): Manifest {
  const byKey = new Map<string, ManifestEdition>();
  const edition = (family: DocumentFamily, date: string): ManifestEdition => {
    const key = `${family}:${date}`;
    let e = byKey.get(key);
    if (!e) {
      e = { family, effectiveDate: date, setCode: null, setName: null, urls: [], downloads: {}, files: [] };
      byKey.set(key, e);
    }
    return e;
  };
  for (const f of input.files) {
    edition(f.family, f.effectiveDate).files.push({ path: f.path, sha256: f.sha256, labelDate: f.labelDate });
  }
  const formats = new Map<string, Set<string>>();
  for (const r of input.metadata?.Rules ?? []) formats.set(r.Date, (formats.get(r.Date) ?? new Set()).add(r.Format));
  const crEditions = () => [...byKey.values()].filter((e) => e.family === 'cr');
  // A download address belongs to the edition whose date or file label it names, else the nearest within a week.
  // An ambiguous six-digit address that matches no known edition is left out rather than invent one.
  const attach = (url: string, dates: string[], mayCreate: boolean, checked = true): void => {
    const ext = /\.(txt|docx?|pdf|rtf)$/i.exec(url)?.[1]?.toLowerCase();
    if (dates.length === 0 || !ext) return;
    // The archive lists the formats it found on the official server for a date: a guessed address of another format is left out.
    if (checked && dates.length === 1 && formats.has(dates[0]!) && !formats.get(dates[0]!)!.has(ext === 'doc' ? 'docx' : ext)) return;
    let target: ManifestEdition | undefined;
    for (const date of dates) {
      target = crEditions().find((e) => e.effectiveDate === date || e.files.some((f) => f.labelDate === date));
      if (target) break;
    }
    for (const date of dates) {
      if (target) break;
      const near = crEditions()
        .map((e) => ({ e, d: Math.abs(daysBetween(e.effectiveDate, date)) }))
        .filter((x) => x.d <= 7)
        .sort((a, b) => a.d - b.d)[0];
      target = near?.e;
    }
    if (!target && mayCreate && dates.length === 1) target = edition('cr', dates[0]!);
    if (!target) return;
    const list = ext === 'txt' ? target.urls : ((target.downloads ??= {})[ext] ??= []);
    if (!list.includes(url)) list.push(url);
  };
  // Editions published beyond the archives (and irregular names, which no date can be read from) come first.
  for (const p of input.published?.editions ?? []) {
    if (!crEditions().some((e) => e.effectiveDate === p.effectiveDate || e.files.some((f) => f.labelDate === p.effectiveDate))) edition('cr', p.effectiveDate);
    for (const url of p.urls ?? []) attach(url, [p.effectiveDate], true, false);
  }
  for (const url of input.officialUrls) attach(url, datesOfUrl(url), true);
  for (const r of input.metadata?.Rules ?? []) if (r.URL) attach(r.URL, [r.Date], true);
  for (const found of input.metadata?.FoundFiles ?? []) {
    if (found.OriginalURL) attach(found.OriginalURL, [found.Date], true);
    if (found.Source) attach(found.Source, [found.Date], true);
  }
  const template = input.metadata?.URLFormats?.Available?.[0];
  for (const date of input.metadata?.KnownExistingDates ?? []) {
    const known = formats.has(date) || crEditions().some((e) => e.effectiveDate === date || e.files.some((f) => f.labelDate === date));
    if (known || !template) continue;
    const [y, m, d] = date.split('-');
    attach(
      template
        .replace(/\{\{year\}\}/g, y!)
        .replace('{{month}}', m!)
        .replace('{{day}}', d!)
        .replace('{{ext}}', 'txt'),
      [date],
      true,
    );
  }
  for (const e of byKey.values()) {
    if (e.family !== 'cr') continue;
    const release = (input.setReleases?.releases ?? [])
      .map((r) => ({ r, d: Math.abs(daysBetween(r.publishedOn, e.effectiveDate)) }))
      .filter((x) => x.d <= 10)
      .sort((a, b) => a.d - b.d)[0];
    // data/published.json corrects set-releases.json: its setCode (null for an edition with no set of its own) wins
    const listed = input.published?.editions.find((p) => p.effectiveDate === e.effectiveDate && p.setCode !== undefined);
    if (listed) {
      e.setCode = listed.setCode ?? null;
      e.setName = listed.setName ?? null;
    } else if (release) {
      e.setCode = release.r.setCode;
      e.setName = release.r.setName;
    }
    e.files.sort((a, b) => (a.path < b.path ? -1 : 1));
    if (e.downloads && Object.keys(e.downloads).length === 0) delete e.downloads;
  }
  const editions = [...byKey.values()].sort((a, b) => (a.family === b.family ? (a.effectiveDate < b.effectiveDate ? -1 : 1) : a.family < b.family ? -1 : 1));
  return {
    note: 'Every known edition: effective date (as the document states it), set, official download addresses and the sha256 of known archive files. Generated by "crkb manifest --archive DIR".',
    editions,
  };
}
