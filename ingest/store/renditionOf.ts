import { daysBetween } from '../../src/core/daysBetween.js';

/** A unit's number and title ("2.1", "Game Play Error — Missed Trigger"), as a tournament document's edition lists them. */
export type Heading = readonly [number: string, title: string];

/**
 * How far (in days) a rendition's stated date may be from the official edition it renders. The policy
 * folder's renditions that state a date no official PDF has are 1, 2 and 7 days from the edition they
 * render (IPG 2021-02-06/02-05, 2018-10-03/10-05, 2018-05-04/04-27); two official editions of one family
 * are never closer than 14 days (MTR 2020-09-28 and 2020-10-12), so within 7 days a rendition is
 * never nearer to another official edition.
 */
export const RENDITION_WINDOW_DAYS = 7;

/** Share of the numbered units whose titles must be alike (calibre's IPG 2015 renditions: 25 of 30). */
const TITLES_ALIKE = 0.8;

/** An official edition a rendition could be a copy of. */
export interface OfficialEdition {
  date: string;
  headings: () => readonly Heading[];
}

/** The official edition a rendition was filed under, and why. */
export interface RenditionMatch {
  date: string;
  days: number;
  sections: number;
  alike: number;
}

const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * Whether two editions' units are the same sections: the same numbered units (appendices, whose
 * letters are reused and which renditions often leave out, aside), and at least 80 % of them with
 * alike titles (case, dashes and punctuation aside). Returns [sections, titles alike], or null.
 */
export function sameSections(a: readonly Heading[], b: readonly Heading[]): [sections: number, alike: number] | null {
  const numbered = (hs: readonly Heading[]): Map<string, string> => new Map(hs.filter(([n]) => /^\d/.test(n)).map(([n, t]) => [n, norm(t)]));
  const x = numbered(a);
  const y = numbered(b);
  if (x.size === 0 || x.size !== y.size) return null;
  let alike = 0;
  for (const [n, t] of x) {
    const u = y.get(n);
    if (u === undefined) return null;
    if (u === t) alike++;
  }
  return alike >= TITLES_ALIKE * x.size ? [x.size, alike] : null;
}

/**
 * The official edition a rendition (a third party's copy, e.g. an HTML page made for an app) stating
 * `date`, which no official copy states, renders: the nearest official edition of its family within
 * RENDITION_WINDOW_DAYS whose sections it has (see sameSections). Null when there is none, or when two
 * are equally near (the rendition then stays an edition of its own).
 */
export function renditionOf(date: string, headings: readonly Heading[], officials: readonly OfficialEdition[]): RenditionMatch | null {
  const near = officials
    .map((o) => ({ o, days: daysBetween(date, o.date) }))
    .filter(({ days }) => days !== 0 && Math.abs(days) <= RENDITION_WINDOW_DAYS)
    .sort((p, q) => Math.abs(p.days) - Math.abs(q.days));
  const first = near[0];
  if (!first || (near.length > 1 && Math.abs(near[1]!.days) === Math.abs(first.days))) return null;
  const same = sameSections(headings, first.o.headings());
  return same ? { date: first.o.date, days: first.days, sections: same[0], alike: same[1] } : null;
}
