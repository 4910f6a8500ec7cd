import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { citationDate, parseRulings, splitCitations } from '../../ingest/parse/parseRulings.js';

const root = path.resolve(process.cwd(), '..', 'shared');
const read = (p: string): string => decodeBuffer(fs.readFileSync(path.join(root, p))).text;
const release = read('corpus/mtg-cr/CR-1999-04-21.txt');

test('1999-04-21 text release: family, date, E.13 Templates, counts against independent regexes', () => {
  const doc = parseRulings(release);
  assert.equal(doc.family, 'rulings');
  assert.equal(doc.format, 'rulings-text');
  assert.equal(doc.effectiveDate, '1999-04-21');
  const e13 = doc.rules.find((r) => r.number === 'E.13')!;
  assert.deepEqual([e13.kind, e13.text, e13.parent], ['section', 'Templates', null]);
  const lines = release.split('\n');
  // Sections appear twice in the file (contents, then body): count the body ones.
  const sectionLines = lines.filter((l) => /^[A-Z]\.\d+ - /.test(l)).length;
  assert.equal(doc.rules.filter((r) => r.kind === 'section').length * 2, sectionLines);
  const rulingLines = lines.filter((l) => /^[A-Z]\.\d+\.Rulings?\.\d+ - /.test(l)).length;
  assert.equal(doc.rules.filter((r) => r.kind === 'ruling').length, rulingLines);
  const ruleLines = lines.filter((l) => /^[A-Z]\.\d+\.\d+ - /.test(l)).length;
  assert.equal(doc.rules.filter((r) => r.kind === 'rule').length, ruleLines);
  assert.deepEqual(
    doc.parts.map((p) => p.number),
    ['A', 'C', 'D', 'E', 'G', 'K', 'M', 'P', 'T', 'U', 'Z'],
  );
  const ruling = doc.rules.find((r) => r.number === 'E.13.Ruling.1')!;
  assert.deepEqual([ruling.kind, ruling.parent], ['ruling', 'E.13']);
  assert.deepEqual(ruling.citations, [{ source: 'WotC Rules Team', date: '1995-11-10', raw: '[WotC Rules Team 11/10/95]' }]);
  assert.ok(ruling.text.endsWith('[WotC Rules Team 11/10/95]'), 'text is kept as published');
  const withCitations = doc.rules.filter((r) => r.kind === 'ruling' && (r.citations ?? []).length > 0).length;
  assert.ok(withCitations > 300, `${withCitations} rulings with citations`);
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.ok(doc.rules.find((r) => r.number === 'A.1')!.notes!.length === 3);
  assert.match(doc.introduction ?? '', /FINAL release under the FIFTH EDITION/);
  assert.match(doc.credits ?? '', /not officially issued by Wizards of the Coast/);
  // The misspelt "K.14.Rulings.7" is read as a ruling, with a warning.
  assert.ok(doc.rules.some((r) => r.number === 'K.14.Ruling.7'));
  assert.ok(doc.warnings.some((w) => w.code === 'misspelt-number' && w.line === 1427));
});

test('1999-04-21 index: topics map to sections, grouped entries and "see" cross-references', () => {
  const doc = parseRulings(release);
  const start = release.split('\n').lastIndexOf('Index');
  const end = release.split('\n').lastIndexOf('Acknowledgements and Disclaimers');
  const body = release.split('\n').slice(start + 1, end);
  // Independent count: every index line either names targets, refers with "see", or heads a group.
  const withTargets = body.filter((l) => /, [A-Z](\.\d+|\.Ruling\.\d+)*$/.test(l)).length;
  const seeAlso = body.filter((l) => /, see /i.test(l)).length;
  assert.equal(doc.index.length, withTargets + seeAlso);
  assert.ok(withTargets > 300);
  assert.deepEqual(doc.index.find((e) => e.topic === 'Abilities, Activated')!.targets, ['A.2']);
  assert.deepEqual(doc.index.find((e) => e.topic === 'Abilities, Responding to')!.targets, ['T.6.2', 'T.8.6']);
  assert.deepEqual(doc.index.find((e) => e.topic === 'Activated Abilities')!.targets, ['A.2']);
  assert.ok(doc.index.find((e) => e.topic === 'Attack')!.targets.includes('C.4'), '"Attack, See Combat" resolved');
  const sections = new Set(doc.rules.map((r) => r.number).concat(doc.parts.map((p) => p.number)));
  const dangling = doc.index.flatMap((e) => e.targets).filter((t) => !sections.has(t));
  assert.deepEqual(dangling, []);
});

test('seed 002: a later page; Templates is E.12, navigation noise dropped, E.12.Ruling.3 cites CompRules 1999-11-01', () => {
  const doc = parseRulings(read('seeds/002_11781e35e8daa943.txt'));
  assert.equal(doc.format, 'rulings-html');
  assert.equal(doc.effectiveDate, null);
  assert.deepEqual(
    doc.rules.map((r) => r.number),
    ['E.12', 'E.12.1', ...[1, 2, 3, 4, 5, 6, 7].map((n) => `E.12.Ruling.${n}`)],
  );
  const r3 = doc.rules.find((r) => r.number === 'E.12.Ruling.3')!;
  assert.deepEqual(
    r3.citations!.map((c) => [c.source, c.date]),
    [['CompRules', '1999-11-01']],
  );
  const r7 = doc.rules.find((r) => r.number === 'E.12.Ruling.7')!;
  assert.deepEqual(
    r7.citations!.map((c) => [c.source, c.date]),
    [
      ['CompRules', '1999-11-01'],
      ['DeLaney', '1999-12-11'],
    ],
  );
  assert.ok(!doc.rules.some((r) => /\bTop\b|Return to Rules Index/.test(r.text)));
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.equal(doc.rules.find((r) => r.number === 'E.12.Ruling.1')!.citations![0]!.date, '1995-11-10');
});

test('citations: both date forms name the same day; undated sources keep a null date', () => {
  assert.equal(citationDate('11', '10', '95'), '1995-11-10');
  assert.equal(citationDate('1995', '11', '10'), '1995-11-10');
  assert.deepEqual(splitCitations("x [Duelist Magazine #12, Page 26] y [Urza's Saga Rule Page]"), [
    { source: 'Duelist Magazine #12, Page 26', date: null, raw: '[Duelist Magazine #12, Page 26]' },
    { source: "Urza's Saga Rule Page", date: null, raw: "[Urza's Saga Rule Page]" },
  ]);
});

test('a raw HTML rulings page parses like its text', () => {
  const html =
    '<html><body><h2>E.12 - Templates</h2><p><a href="index.html">Return to Rules Index</a></p>' +
    '<p>E.12.Ruling.6- If a spell says &quot;as though&quot; ... [CompRules 1999/11/01]</p><p><a href="#top">Top</a></p></body></html>';
  const doc = parseRulings(html);
  assert.deepEqual(
    doc.rules.map((r) => r.number),
    ['E.12', 'E.12.Ruling.6'],
  );
  assert.equal(doc.rules[1]!.text, 'If a spell says "as though" ... [CompRules 1999/11/01]');
});

test('1999-04-21: every "Note - …" paragraph kept with its citations, titles keep their colon, "[may]" is wording', () => {
  const doc = parseRulings(release);
  const notes = doc.rules.flatMap((r) => (r.notes ?? []).map((n) => ({ section: r.number, ...n })));
  const noteLines = release.split('\n').filter((l) => /^Note\s*-/.test(l.trim()));
  assert.equal(notes.length, noteLines.length);
  assert.equal(notes.length, 196);
  assert.equal(
    notes.reduce((n, x) => n + x.citations.length, 0),
    24,
  );
  assert.deepEqual(notes[0], { section: 'A.1', text: 'The text "Counts as a <-something->" is not an ability. See Rule G.10.2.', citations: [] });
  const titled = doc.rules.filter((r) => r.kind === 'section' && r.text.endsWith(':'));
  assert.equal(titled.length, 18);
  assert.equal(doc.rules.find((r) => r.number === 'A.11')!.text, 'Banding:');
  const e71 = doc.rules.find((r) => r.number === 'E.7.1')!;
  assert.match(e71.text, /you \[may\] do/);
  assert.ok(!doc.rules.some((r) => (r.citations ?? []).some((c) => c.raw === '[may]')), '[may] is not a citation');
  assert.deepEqual(
    splitCitations('you [may] do it. [WotC Rules Team 1994] [Legends Rulecards]').map((c) => c.raw),
    ['[WotC Rules Team 1994]', '[Legends Rulecards]'],
  );
});

test('1999-04-21 index: a group heading holds only its own sub-entries', () => {
  const topics = parseRulings(release).index.map((e) => e.topic);
  assert.ok(topics.includes('End of Phase, Abilities'));
  for (const t of ['End of Turn', 'Foresthome', 'Infinity', 'Beginning of Turn', 'Mana Burn', 'Pitch Spells', 'Damage Dealing']) {
    assert.ok(topics.includes(t), `${t} is a topic of its own`);
  }
  assert.ok(
    !topics.some((t) => /^(End of Phase|Beginning of Phase|Phasing|Mana), (?!Abilities|Ability|General|In|Out|Colorless|Generic)/.test(t)),
    'nothing else nested',
  );
  for (const t of ['Phasing, Out', 'Cost, X in Costs', 'Draw, Pile', 'Zones, Territory', 'Abilities, Untap']) assert.ok(topics.includes(t), t);
});
