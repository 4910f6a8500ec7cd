import { escapeXml } from '../../core/escapeHtml.js';
import { ruleLabel } from '../../core/ruleNumber.js';
import { historyStepWords } from '../../query/chatText.js';
import { currentPlace } from '../../query/currentPlace.js';
import type { KnowledgeBase } from '../../query/KnowledgeBase.js';
import type { PolicyFamilyName } from '../../core/families.js';
import { documentName, familyLabel, numberingNote, splitUnitText } from '../../core/policyUnit.js';
import { QueryError } from '../../query/QueryError.js';

/** Editions the main feed lists, newest first (each entry summarizes a diff, computed once per database). */
const FEED_EDITIONS = 25;

interface Entry {
  id: string;
  title: string;
  updated: string;
  link: string;
  summary: string;
  content?: string;
}

const stamp = (date: string): string => `${date}T00:00:00Z`;

/**
 * The prefix of every feed and entry id (RFC 4151 tag URIs): ids name what an entry is about, not where
 * the site is, so moving it (--public-url) does not make readers show every entry again.
 */
const TAG = 'tag:crkb,2026:';

function feed(f: { id: string; title: string; subtitle: string; self: string; alternate: string; updated: string; entries: Entry[] }): string {
  const x = escapeXml;
  const entries = f.entries.map((e) =>
    [
      '  <entry>',
      `    <id>${x(e.id)}</id>`,
      `    <title>${x(e.title)}</title>`,
      `    <updated>${e.updated}</updated>`,
      `    <link rel="alternate" type="text/html" href="${x(e.link)}"/>`,
      `    <summary>${x(e.summary)}</summary>`,
      ...(e.content !== undefined ? [`    <content type="text">${x(e.content)}</content>`] : []),
      '  </entry>',
    ].join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${x(f.id)}</id>`,
    `  <title>${x(f.title)}</title>`,
    `  <subtitle>${x(f.subtitle)}</subtitle>`,
    `  <updated>${f.updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${x(f.self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${x(f.alternate)}"/>`,
    '  <author><name>crkb</name></author>',
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A document's editions feed (/feed.atom for the CR, /feed/mtr.atom, /feed/ipg.atom, /feed/jar.atom): its newest editions, each
 * with its release notes summary and a link to its diff page; a tournament document's ids name its family.
 */
export function editionsFeed(kb: KnowledgeBase, family: 'cr' | PolicyFamilyName, base: string): string {
  const chain = kb.officialEditions(family);
  const cr = family === 'cr';
  // the CR's ids and links predate the other families and stay as they were
  const idPrefix = cr ? TAG : `${TAG}${family}/`;
  const unit = cr ? 'rule' : 'section';
  const entries: Entry[] = [];
  for (let k = chain.length - 1; k >= 0 && entries.length < FEED_EDITIONS; k--) {
    const e = chain[k]!;
    const prev = chain[k - 1];
    const name = `${documentName(family)} effective ${e.effectiveDate}${e.setName ? ` (${e.setName})` : ''}`;
    if (!prev) {
      entries.push({
        id: cr ? `${TAG}cr/${e.effectiveDate}` : `${idPrefix}${e.effectiveDate}`,
        title: name,
        updated: stamp(e.effectiveDate),
        link: `${base}/${family}/${e.effectiveDate}`,
        summary: `The first stored edition: ${plural(kb.ruleCount(e.id), unit)}.`,
      });
      continue;
    }
    const d = kb.diff(prev, e, { rulesOnly: true, segments: false });
    const c = d.counts;
    const parts = [
      plural(c.added ?? 0, unit) + ' added',
      `${c.removed ?? 0} removed`,
      `${c.renumbered ?? 0} renumbered`,
      `${c.substantive ?? 0} with new wording`,
      `${c.references ?? 0} with updated references`,
    ];
    const touched = d.sections.slice(0, 8).map((s) => `${s.section}${s.title ? ` ${s.title}` : ''}`);
    entries.push({
      id: `${idPrefix}diff/${prev.effectiveDate}/${e.effectiveDate}`,
      title: name,
      updated: stamp(e.effectiveDate),
      link: `${base}${cr ? '' : `/${family}`}/diff/${prev.effectiveDate}/${e.effectiveDate}`,
      summary: `Since ${prev.effectiveDate}: ${parts.join(', ')}.${touched.length ? ` Sections: ${touched.join('; ')}${d.sections.length > touched.length ? ` and ${plural(d.sections.length - touched.length, 'more section')}` : ''}.` : ''}`,
    });
  }
  if (cr)
    return feed({
      id: `${TAG}feed/editions`,
      title: 'Magic: The Gathering Comprehensive Rules — new editions',
      subtitle: 'Every edition of the Comprehensive Rules, with what changed since the one before.',
      self: `${base}/feed.atom`,
      alternate: `${base}/`,
      updated: stamp(chain.at(-1)?.effectiveDate ?? '1999-01-01'),
      entries,
    });
  return feed({
    id: `${TAG}feed/${family}/editions`,
    title: `${documentName(family)} (${familyLabel(family)}) — new editions`,
    subtitle: `Every stored edition of the ${documentName(family)}, with what changed since the one before.${numberingNote(family) === null ? '' : ` ${numberingNote(family)}`}`,
    self: `${base}/feed/${family}.atom`,
    alternate: `${base}/${family}/latest`,
    updated: stamp(chain.at(-1)?.effectiveDate ?? '1994-01-01'),
    entries,
  });
}

/**
 * A section's feed in a tournament document (/feed/ipg/2.1.atom): one entry per edition that changed it,
 * newest first, followed across renumbering. The section is the one `number` names in `edition` (default
 * latest); the self link pins its last number to its edition, and the feed's id is its lineage's first version.
 */
export function policySectionFeed(kb: KnowledgeBase, family: PolicyFamilyName, number: string, base: string, editionArg?: string): string {
  const edition = kb.resolveEdition(editionArg, family).edition;
  const h = kb.history(edition, number);
  if (!h) throw new QueryError('NOT_FOUND', `no ${familyLabel(family)} ${number} in the ${edition.effectiveDate} edition`, { edition: edition.effectiveDate });
  const first = h.steps[0]!;
  const last = h.steps.at(-1)!;
  const entries: Entry[] = [];
  for (const s of [...h.steps].reverse()) {
    if (s.change === 'unchanged') continue;
    entries.push({
      id: `${TAG}${family}/${s.date}/${s.number}`,
      title: `${familyLabel(family)} ${s.number} ${splitUnitText(s.text).title} (${s.date}): ${historyStepWords(s)}`,
      updated: stamp(s.date),
      link: `${base}/${family}/${s.date}/${encodeURIComponent(s.number)}`,
      summary: s.text,
    });
  }
  return feed({
    id: `${TAG}${family}/section/${first.date}/${first.number}`,
    title: `${documentName(family)} ${last.number}: changes`,
    subtitle: `${familyLabel(family)} ${last.number} (${h.numbers.join(' → ')}) across every edition it appears in.${numberingNote(family) === null ? '' : ` ${numberingNote(family)}`}`,
    self: `${base}/feed/${family}/${encodeURIComponent(last.number)}.atom?edition=${last.date}`,
    alternate: `${base}/${family}/history/${encodeURIComponent(last.number)}?edition=${last.date}`,
    updated: stamp(entries[0]?.updated.slice(0, 10) ?? last.date),
    entries,
  });
}

/**
 * A rule's feed: one entry per edition that changed it (added, renumbered, reworded, returned), newest
 * first. The rule is the one `number` names in `edition` (default latest; or, when that edition has no
 * such number, in the last edition that had it), followed along its lineage: the feed's self link pins
 * the rule's last number to its edition, so a subscription stays with the rule when it is renumbered, and the
 * feed's id is the lineage's first version, the same whichever number it is asked by.
 */
export function ruleFeed(kb: KnowledgeBase, number: string, base: string, editionArg?: string): string {
  const { edition } = currentPlace(kb, number, kb.resolveEdition(editionArg).edition);
  const h = kb.history(edition, number);
  if (!h) throw new QueryError('NOT_FOUND', `no history of rule ${number}`, {});
  const first = h.steps[0]!;
  const last = h.steps.at(-1)!;
  // the rule's last number, pinned to its edition: the same rule whatever is renumbered later
  const self = `${base}/feed/${last.number}.atom?edition=${last.date}`;
  const entries: Entry[] = [];
  for (const s of [...h.steps].reverse()) {
    if (s.change === 'unchanged') continue;
    entries.push({
      id: `${TAG}cr/${s.date}/${s.number}`,
      title: `${ruleLabel(s)} (${s.date}): ${historyStepWords(s)}`,
      updated: stamp(s.date),
      link: `${base}/cr/${s.date}/${s.number}`,
      summary: s.text,
    });
  }
  return feed({
    id: `${TAG}rule/${first.date}/${first.number}`,
    title: `Comprehensive Rules ${last.number}: changes`,
    subtitle: `Rule ${last.number} (${h.numbers.join(' → ')}) across every edition it appears in.`,
    self,
    alternate: `${base}/history/${last.number}?edition=${last.date}`,
    updated: stamp(entries[0]?.updated.slice(0, 10) ?? last.date),
    entries,
  });
}
