import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parsePolicy, policyEffectiveDate, policyFamilyOf, yearSlipOf } from '../../ingest/parse/parsePolicy.js';
import { detectFormat, htmlText } from '../../ingest/parse/detectFormat.js';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { parseInput } from '../../ingest/store/parseInput.js';
import { IngestError } from '../../ingest/parse/IngestError.js';
import { parsePolicyText } from '../../ingest/parse/parsePolicyText.js';
import { parseSource } from '../../ingest/parse/parseSource.js';
import { crFixtureText } from '../support/crFixture.js';

const shared = path.resolve(process.cwd(), '..', 'shared');
const fixture = (name: string): Array<[string, string]> =>
  fs
    .readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'policy', `${name}.tsv`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t') as [string, string]);

const IPG = [
  'MAGIC INFRACTION PROCEDURE GUIDE',
  'Effective February 8, 2013',
  'INTRODUCTION',
  'The Infraction Procedure Guide provides judges the appropriate penalties.',
  'CONTENTS',
  '1. General Philosophy ........................ 3',
  '2. Game Play Errors ......................... 7',
  '2.1. Game Play Error — Missed Trigger ....... 7',
  'Appendix A — Penalty Quick Reference ....... 22',
  '1. GENERAL PHILOSOPHY',
  'Judges are neutral arbiters.',
  '2. GAME PLAY ERRORS',
  'Game Play Errors are caused by incorrect play.',
  '2.1. Game Play Error — Missed Trigger\tPenalty',
  'Warning',
  'Definition',
  'A triggered ability triggers, but the player forgets it.',
  'Examples',
  'A. A player forgets an upkeep trigger.',
  'B. A player forgets exalted.',
  'Philosophy',
  'Triggered abilities are common and invisible.',
  'Additional Remedy',
  'The opponent chooses whether the ability is added to the stack.',
  'Upgrade: A missed trigger that is detrimental is upgraded.',
  '2.2. Game Play Error — Looking at Extra Cards\tPenalty',
  'Warning',
  'Definition',
  'A player takes an action that may have allowed them to see cards.',
  'Appendix A — Penalty Quick Reference',
  'Missed Trigger: Warning',
].join('\n');

test('IPG: sections, infractions with their parts, penalty and examples; contents and front matter accounted', () => {
  const doc = parsePolicy(IPG, 'ipg', 'pdf');
  assert.equal(doc.effectiveDate, '2013-02-08');
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.kind, r.parent, r.title]),
    [
      ['1', 'section', null, 'GENERAL PHILOSOPHY'],
      ['2', 'section', null, 'GAME PLAY ERRORS'],
      ['2.1', 'rule', '2', 'Game Play Error — Missed Trigger'],
      ['2.2', 'rule', '2', 'Game Play Error — Looking at Extra Cards'],
      ['Appendix A', 'appendix', null, 'Penalty Quick Reference'],
    ],
  );
  const mt = doc.rules[2]!;
  assert.equal(mt.penalty, 'Warning');
  assert.deepEqual(
    mt.policyParts?.map((p) => p.name),
    ['definition', 'examples', 'philosophy', 'additional-remedy', 'upgrade'],
  );
  assert.equal(mt.policyParts?.[0]?.text, 'A triggered ability triggers, but the player forgets it.');
  assert.equal(mt.policyParts?.[4]?.text, 'A missed trigger that is detrimental is upgraded.');
  assert.deepEqual(mt.examples, ['A. A player forgets an upkeep trigger.', 'B. A player forgets exalted.']);
  assert.match(doc.introduction ?? '', /^Effective February 8, 2013\nINTRODUCTION/);
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.equal(doc.accounting.bodyLines, IPG.split('\n').length);
});

test('a numbered list item is no heading; a missing section is reported against the contents', () => {
  const text = [
    'MAGIC: THE GATHERING TOURNAMENT RULES',
    'Effective July 1, 2009',
    '1. Tournament Fundamentals',
    '1.1 Tournament Types',
    'Steps, in order:',
    '2. Players shuffle their decks.',
    '3. Opponents’ game-win percentage',
    '2. Tournament Mechanics',
    '2.1 Match Structure',
    'Matches are best two of three.',
  ].join('\n');
  const doc = parsePolicy(text, 'mtr', 'policy-text');
  assert.deepEqual(
    doc.rules.map((r) => r.number),
    ['1', '1.1', '2', '2.1'],
  );
  assert.equal(doc.rules[1]!.text, 'Steps, in order:\n2. Players shuffle their decks.\n3. Opponents’ game-win percentage');

  const withContents = [
    'DCI PENALTY GUIDE AND PROCEDURES',
    'Effective — March 20, 2008',
    'Contents\tPage',
    '1. General Philosophy',
    '10. Definitions',
    '11. Shortcuts',
    '100. Universal Infractions',
    '1. General Philosophy',
    'Text.',
    '10. Definitions',
    'More.',
    '100. Universal Infractions',
  ].join('\n');
  const d2 = parsePolicy(withContents, 'ipg', 'doc');
  assert.deepEqual(
    d2.rules.map((r) => r.number),
    ['1', '10', '100'],
  );
  assert.deepEqual(
    d2.warnings.map((w) => w.code),
    ['missing-section'],
  );
  assert.match(d2.warnings[0]!.message, /section 11 is in the contents/);
});

test('DCI era: three-digit sections grouped by tens, run-in headings split from their text', () => {
  const text = [
    'MAGIC: THE GATHERING DCI FLOOR RULES',
    'Effective March 20, 2005',
    '100. GENERAL MAGIC: THE GATHERING TOURNAMENT RULES',
    '101. Format and Ratings Categories\tThe DCI sanctions the following formats.',
    '110. MAGIC: THE GATHERING TOURNAMENT MECHANICS',
    '112. Match Time Limits',
    'The required minimum time limit for any match is 40 minutes.',
    '20. DEFINITION OF PENALTIES Caution: This is the smallest penalty.',
  ].join('\n');
  const doc = parsePolicy(text, 'mtr', 'pdf');
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.kind, r.parent, r.title, r.text]),
    [
      ['100', 'section', null, 'GENERAL MAGIC: THE GATHERING TOURNAMENT RULES', ''],
      ['101', 'subrule', '100', 'Format and Ratings Categories', 'The DCI sanctions the following formats.'],
      ['110', 'rule', '100', 'MAGIC: THE GATHERING TOURNAMENT MECHANICS', ''],
      [
        '112',
        'subrule',
        '110',
        'Match Time Limits',
        'The required minimum time limit for any match is 40 minutes.\n20. DEFINITION OF PENALTIES Caution: This is the smallest penalty.',
      ],
    ],
  );
  const ipg = parsePolicy(
    [
      'DCI PENALTY GUIDELINES',
      'Effective January 20, 2005',
      '10. FORMAT OF INFRACTIONS',
      'Listed so.',
      '20. DEFINITION OF PENALTIES Caution: This is the smallest penalty.',
      '100. DECK PROBLEMS',
    ].join('\n'),
    'ipg',
    'pdf',
  );
  assert.deepEqual(
    ipg.rules.map((r) => [r.number, r.title, r.text]),
    [
      ['10', 'FORMAT OF INFRACTIONS', 'Listed so.'],
      ['20', 'DEFINITION OF PENALTIES', 'Caution: This is the smallest penalty.'],
      ['100', 'DECK PROBLEMS', ''],
    ],
  );
});

test('the family is the first document name in the head; the date the one under the title', () => {
  assert.equal(policyFamilyOf('MAGIC: THE GATHERING DCI FLOOR RULES\nSee the DCI Penalty Guidelines for penalties.'), 'mtr');
  assert.equal(policyFamilyOf('DCI™ UNIVERSAL PENALTY GUIDELINES\nSee the DCI Floor Rules.'), 'ipg');
  assert.equal(policyFamilyOf('Judging at Regular Rules Enforcement Level (REL)\nUpdated September 26, 2014'), 'jar');
  assert.equal(policyFamilyOf('Magic: The Gathering Comprehensive Rules\nSee the Magic Tournament Rules.'), null);
  assert.equal(policyEffectiveDate('DCI Floor Rules\nEffective September 1, 2003, updated December 1, 2003'), '2003-12-01');
  assert.equal(policyEffectiveDate('Release — March 1, 2008\nEffective — March 20, 2008'), '2008-03-20');
  assert.equal(policyEffectiveDate('Effective Oct 3rd, 2018'), '2018-10-03');
  assert.equal(policyEffectiveDate('No date here'), null);
});

test('a document that misstates its own year is filed under the date its contents give, and says so', () => {
  // the MTR of February 2021: "Effective February 5, 2020" over a set list and a list of changes of 2021
  const slipped = IPG.replace('Effective February 8, 2013', 'Effective February 5, 2020').replace(
    'Missed Trigger: Warning',
    'Missed Trigger: Warning\nKaldheim (effective February 5, 2021)\nFebruary 5, 2021\n2.1: Kaldheim added.',
  );
  const doc = parsePolicy(slipped, 'ipg', 'pdf');
  assert.equal(doc.effectiveDate, '2021-02-05');
  assert.match(doc.warnings.find((w) => w.code === 'date-corrected')?.message ?? '', /states 2020-02-05.*filed under 2021-02-05/);
  // the MTR of September 2016: its own date in its set list, one misprinted date a year on ("Kaladesh [effective September 30, 2017]")
  const ownDate =
    'Effective September 30, 2016\nKaladesh (effective September 30, 2016)\nKaladesh Block (Kaladesh [effective September 30, 2017])\nSeptember 30, 2017';
  assert.equal(yearSlipOf('2016-09-30', ownDate), null);
  // a later date named once, or never as an effective date, is no sign
  assert.equal(yearSlipOf('2020-02-05', 'Effective February 5, 2020\nKaldheim (effective February 5, 2021)'), null);
  assert.equal(yearSlipOf('2020-02-05', 'Effective February 5, 2020\nFebruary 5, 2021\nFebruary 5, 2021'), null);
  assert.equal(
    parsePolicy(IPG, 'ipg', 'pdf').warnings.find((w) => w.code === 'date-corrected'),
    undefined,
  );
});

test('a tournament document is never a CR fragment, and a CR file never a tournament document', () => {
  const floorRules = decodeBuffer(fs.readFileSync(path.join(shared, 'policy', 'mtr', '2008-03-01.txt'))).text;
  assert.equal(detectFormat(floorRules), 'policy-text');
  assert.equal(detectFormat(crFixtureText('2026-06-19')), 'cr-text');
  const cr = decodeBuffer(fs.readFileSync(path.join(shared, 'corpus', 'rulesraker', '2022-11-18.txt'))).text;
  assert.equal(detectFormat(cr), 'cr-text');
  assert.equal(policyFamilyOf(cr), null);
});

test('the 2008-03-01 Floor Rules text parses as MTR and matches its hand-checked fixture', async () => {
  const file = path.join(shared, 'policy', 'mtr', '2008-03-01.txt');
  const { doc } = await parseInput(file, fs.readFileSync(file));
  assert.equal(doc.family, 'mtr');
  assert.equal(doc.format, 'policy-text');
  assert.equal(doc.effectiveDate, '2008-03-01');
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.title]),
    fixture('mtr-2008-03-01'),
  );
  assert.deepEqual(doc.accounting.unaccounted, []);
});

test('a tournament document with no numbered sections (the 1994 Usenet post) is rejected by name', async () => {
  const file = path.join(shared, 'policy', 'mtr', '1994-01-26.txt');
  await assert.rejects(
    parseInput(file, fs.readFileSync(file)),
    (e: unknown) => e instanceof IngestError && e.source === file && /no numbered sections found in this MTR document/.test(e.reason),
  );
});

test('an IPG heading whose penalty the PDF joined to its title (no tab at the margin) is split', () => {
  const doc = parsePolicy(
    [
      'MAGIC INFRACTION PROCEDURE GUIDE',
      'Effective February 5, 2021',
      '1. GENERAL PHILOSOPHY',
      'Judges are neutral.',
      '2. GAME PLAY ERRORS',
      '2.1. Game Play Error — Missed Trigger No Penalty',
      'Definition',
      'A trigger is forgotten.',
    ].join('\n'),
    'ipg',
    'pdf',
  );
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.title, r.penalty]),
    [
      ['1', 'GENERAL PHILOSOPHY', undefined],
      ['2', 'GAME PLAY ERRORS', undefined],
      ['2.1', 'Game Play Error — Missed Trigger', 'No Penalty'],
    ],
  );
});

test('the penalty box of the 2007-2010 IPGs: levels over penalties, read as the penalty (IPG 2007-09-20, 2010-04-01)', () => {
  // lines as pdf.js gives the 2007-09-20 and 2010-04-01 PDFs: "Game" is the box's (and its quick reference's) word for Game Loss
  const text = [
    'DCI Penalty Guidelines',
    'Effective September 20, 2007',
    '110. Deck/Warband Errors',
    'This section deals with problems related to errors in the registration.',
    '111. Deck/Warband Error — Illegal Decklist',
    'Definition',
    'Players are considered to have illegal decklists when one of these conditions is true.',
    'Penalty',
    'All Levels Game',
    'Unless the judge has reason to believe that the deck itself is illegal, this penalty is issued between rounds.',
    '114. Deck/Warband Error — Improper Registration of Limited Card Pool',
    'Definition',
    'This infraction applies to limited tournaments.',
    'Penalty',
    'Regular Competitive Professional Caution Warning Warning',
    'Once the judge has verified the error, the judge corrects the decklist.',
    '135. Tournament Error — Failure to Follow Official Announcements',
    'Definition',
    'A player fails to follow an instruction given to a broad audience.',
    'Penalty',
    'All Levels',
    'Warning',
    '143. Unsporting Conduct — Randomly Determining a Winner',
    'Definition',
    'Players use a random method to determine the winner of a game or match.',
    'Penalty',
    'All Levels Disqualification without prize',
    'Appendix A — Penalty Quick Reference Infraction REL 1 REL 2 REL 3 REL 4 REL 5',
    'Deck Problem—Illegal Main Decklist Game',
  ].join('\n');
  const doc = parsePolicy(text, 'ipg', 'pdf');
  const by = new Map(doc.rules.map((r) => [r.number, r]));
  assert.equal(by.get('111')!.penalty, 'Game Loss');
  assert.equal(by.get('114')!.penalty, 'Regular: Caution; Competitive: Warning; Professional: Warning');
  assert.equal(by.get('135')!.penalty, 'Warning');
  assert.equal(by.get('143')!.penalty, 'Disqualification without prize');
  // the box's lines stay in the text, as printed
  assert.match(by.get('111')!.text, /Penalty\nAll Levels Game\nUnless/);
  const appendix = by.get('Appendix A')!;
  assert.equal(appendix.title, 'Penalty Quick Reference');
  assert.match(appendix.text, /^Infraction REL 1 REL 2 REL 3 REL 4 REL 5\nDeck Problem/);
});

test('an IPG HTML rendition whose top-level headings have no full stop ("2 GAME PLAY ERRORS", IPG 2016-09-30) keeps its sections', () => {
  // the markup of ../shared/policy/ipg/2016-09-30.html, shortened
  const html = [
    '<html><head><title>Magic Infraction Procedure Guide</title></head><body>',
    '<p>Effective September 30, 2016</p>',
    '<a name="1.4"></a></p><h4>1.4 BACKING UP</h4>',
    '<p>Only the Head Judge may authorize a backup.</p>',
    '<a name="2"></a></p><h4>2 GAME PLAY ERRORS</h4>',
    '<p>Game Play Errors are caused by incorrect or inaccurate play of the game.</p>',
    '<a name="2.1"></a></p><h4>2.1 Game Play Error - Missed Trigger</h4>',
    '<h4><b>Definition</b></h4><p>A triggered ability triggers, but the player controlling it forgets it.</p>',
    '<a name="3"></a></p><h4>3 TOURNAMENT ERRORS</h4>',
    '<p>Tournament Errors are violations of the Magic Tournament Rules.</p>',
    '<b>APPENDIX A - PENALTY QUICK REFERENCE</b>',
    '<table border="1"><tbody><tr><th>Infraction</th><th>Penalty</th></tr>',
    '<tr><td>Missed Trigger</td><td>None</td></tr><tr><td>Looking at Extra Cards</td><td>Warning</td></tr></tbody></table>',
    '</body></html>',
  ].join('\n');
  const doc = parsePolicy(htmlText(html), 'ipg', 'policy-html');
  assert.deepEqual(
    doc.rules.map((r) => `${r.number} ${r.title}`),
    ['1.4 BACKING UP', '2 GAME PLAY ERRORS', '2.1 Game Play Error - Missed Trigger', '3 TOURNAMENT ERRORS', 'Appendix A PENALTY QUICK REFERENCE'],
  );
  // the quick reference's first penalty is its table's, not the appendix's
  const appendix = doc.rules.at(-1)!;
  assert.equal(appendix.penalty, undefined);
  assert.match(appendix.text, /Looking at Extra Cards\nWarning/);
  assert.equal(doc.rules[0]!.text, 'Only the Head Judge may authorize a backup.');
});

const html = (text: string): { text: string; encoding: 'utf-8'; lineEndings: Array<'lf'> } => ({ text, encoding: 'utf-8', lineEndings: ['lf'] });

test('an HTML rendition whose contents are in-page links (bluewizard, MTR 2017-09-29) keeps its sections, the contents none of them', () => {
  // the markup of ../shared/policy/mtr/2017-09-29.html, shortened
  const page = [
    '2017-09-09',
    '<html><head><meta charset="UTF-8"></head><body>',
    'MAGIC: THE GATHERING TOURNAMENT RULES<br>',
    '<br>',
    'Effective September 29, 2017<br>',
    '<p>',
    '</p><h5><a href="#1.">1.  Tournament Fundamentals </a> </h5>',
    '<h5><a href="#1.1">1.1 Tournament Types </a> </h5>',
    '<h5><a href="#1.2">1.2 Publishing Tournament Information </a> </h5>',
    '<p>',
    'Appendix B-Time Limits ',
    '</p><h5><a href="#Booster Draft Timing">Booster Draft Timing </a> </h5>',
    '<h5><a href="#Appendix D">Appendix D-Recommended Booster Mix for Limited Tournaments  </a> </h5>',
    '<p>',
    '<a name="1."></a></p><h4>1.  Tournament Fundamentals</h4>',
    '<a name="1.1"></a><h4>1.1 Tournament Types</h4>',
    '<p>Sanctioned, rated tournaments are divided into two types: Premier and non-Premier.</p>',
    '<a name="1.2"></a></p><h4>1.2 Publishing Tournament Information</h4>',
    '<p>Wizards of the Coast reserves the right to publish penalty and suspension information.</p>',
    '<a name="Appendix B-Time Limits"></a></p><h4>Appendix B-Time Limits </h4>',
    '<p>The required minimum time limit for any match is 40 minutes.</p>',
    '<h4>Booster Draft Timing</h4>',
    '<a name="Appendix D"></a><h4>Appendix D-Recommended Booster Mix for Limited Tournaments Note: The following booster mixes are required. </h4>',
    '<p>Ixalan: 3 Ixalan</p>',
    '</body></html>',
  ].join('\n');
  const { doc } = parsePolicyText('mtr.html', html(page), 'policy-html');
  assert.equal(doc.title, 'MAGIC: THE GATHERING TOURNAMENT RULES');
  assert.equal(doc.effectiveDate, '2017-09-29');
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.title, r.text.split('\n')[0]]),
    [
      ['1', 'Tournament Fundamentals', ''],
      ['1.1', 'Tournament Types', 'Sanctioned, rated tournaments are divided into two types: Premier and non-Premier.'],
      ['1.2', 'Publishing Tournament Information', 'Wizards of the Coast reserves the right to publish penalty and suspension information.'],
      ['Appendix B', 'Time Limits', 'The required minimum time limit for any match is 40 minutes.'],
      // the heading ran into its text: the title ends where the contents' entry does
      ['Appendix D', 'Recommended Booster Mix for Limited Tournaments', 'Note: The following booster mixes are required.'],
    ],
  );
  assert.equal(doc.introduction, 'Effective September 29, 2017');
  assert.deepEqual(doc.accounting.unaccounted, []);
});

test("the judges' blog rendition (IPG 2018-10-03): 'IPG 2.1' page titles, a section's own list of its subsections, the effective date before 'Last updated'", () => {
  const page = [
    '2018-10-10',
    '<!doctype html><html><head><meta charset="utf-8"></head>',
    '<header class="entry-header" id="ipg"><h1 class="entry-title">Magic Infraction Procedure Guide</h1></header>',
    '<div><em>Effective Oct 3rd, 2018<br> Last updated Oct 10th , 2018</em></div>',
    '<h2>1. <a href="#ipg1">General Philosophy</a></h2>',
    '<p>1.1. <a href="#ipg1-1">Definition of Penalties</a><br> 1.2. <a href="#ipg1-2">Applying Penalties<br> </a></p>',
    '<h2>4. <a href="#ipg4">Unsporting Conduct</a></h2>',
    '<p>Appendix A - <a href="#ipg-appendix-a">Penalty Quick Reference</a></p>',
    '<header class="entry-header" id="ipg1"><h1 class="entry-title">IPG 1. General Philosophy</h1></header>',
    '<p>Judges are neutral arbiters.</p>',
    '<p>1.1. <a href="#ipg1-1">Definition of Penalties</a></p><p>1.2. <a href="#ipg1-2">Applying Penalties</a></p>',
    '<header class="entry-header" id="ipg1-1"><h1 class="entry-title">IPG 1.1 Definition of Penalties</h1></header>',
    '<p>A Warning is an officially tracked penalty.</p>',
    '<header class="entry-header" id="ipg1-2"><h1 class="entry-title">IPG 1.2 Applying Penalties</h1></header>',
    '<p>Penalties are included with the tournament report.</p>',
    '<header class="entry-header" id="ipg2"><h1 class="entry-title">IPG 2. Game Play Errors</h1></header>',
    '<p>Game Play Errors are caused by incorrect or inaccurate play.</p>',
    '<header class="entry-header" id="ipg3"><h1 class="entry-title">IPG 3. Tournament Errors</h1></header>',
    '<p>Tournament errors are violations of the Magic Tournament Rules.</p>',
    '<header class="entry-header" id="ipg4"><h1 class="entry-title">IPG 4. Unsporting conduct</h1></header>',
    '<p>Unsporting conduct is disruptive behavior.</p>',
    '<header class="entry-header" id="ipg4-4"><h1 class="entry-title">IPG 4.4 Unsporting Conduct - Bribery and Wagering</h1></header>',
    '<h2>Definition</h2><p>A player offers an incentive.</p>',
    '<div class="alert"><p><strong>Penalty</strong></p><p>Disqualification</p></div>',
    '<header class="entry-header" id="ipg-appendix-a"><h1 class="entry-title">IPG Appendix A - Penalty Quick Reference</h1></header>',
    '<table><tr><td><a href="#ipg4-4">Bribery and Wagering</a></td><td>Disqualification</td></tr></table>',
    '</html>',
  ].join('\n');
  const { doc } = parsePolicyText('ipg.html', html(page), 'policy-html');
  assert.equal(doc.effectiveDate, '2018-10-03');
  assert.deepEqual(
    doc.rules.map((r) => `${r.number} ${r.title}`),
    [
      '1 General Philosophy',
      '1.1 Definition of Penalties',
      '1.2 Applying Penalties',
      '2 Game Play Errors',
      '3 Tournament Errors',
      '4 Unsporting conduct',
      '4.4 Unsporting Conduct - Bribery and Wagering',
      'Appendix A Penalty Quick Reference',
    ],
  );
  // the section's list of its subsections is contents, not its text; the quick reference's links are its text
  assert.equal(doc.rules[0]!.text, 'Judges are neutral arbiters.');
  assert.match(doc.rules.at(-1)!.text, /^Bribery and Wagering\nDisqualification$/);
  assert.deepEqual(doc.accounting.unaccounted, []);
});

test("calibre's IPG of January 2016: a heading of a number alone takes the title after it (section 1 is kept)", () => {
  const page = [
    '2016-00-21',
    '<?xml version="1.0" encoding="utf-8"?><html><head><title>Unknown</title></head><body>',
    'MAGIC INFRACTION PROCEDURE GUIDE',
    '<p>Effective January 22, 2016</p>',
    '<p>CONTENTS</p>',
    '<h5><a href="#1">1 General Philosophy </a> </h5>',
    '<h5><a href="#2">2 Game Play Errors </a> </h5>',
    '<a id="1"></a></p><h4>1 </h4>',
    'GENERAL PHILOSOPHY',
    '<p>Judges are neutral arbiters and enforcers of policy and rules.</p>',
    '<a id="2"></a></p><h4>2 GAME PLAY ERRORS</h4>',
    '<p>Game Play Errors are caused by incorrect or inaccurate play.</p>',
    '</body></html>',
  ].join('\n');
  const { doc } = parsePolicyText('ipg.html', html(page), 'policy-html');
  assert.equal(doc.title, 'MAGIC INFRACTION PROCEDURE GUIDE');
  assert.equal(doc.effectiveDate, '2016-01-22');
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.title, r.text]),
    [
      ['1', 'GENERAL PHILOSOPHY', 'Judges are neutral arbiters and enforcers of policy and rules.'],
      ['2', 'GAME PLAY ERRORS', 'Game Play Errors are caused by incorrect or inaccurate play.'],
    ],
  );
});

test('an IPG penalty box under the heading ("Penalty" / "Warning", IPG 2014) is the heading\'s penalty, not its text too', () => {
  const text = [
    'MAGIC INFRACTION PROCEDURE GUIDE',
    'Effective February 7, 2014',
    '1. GENERAL PHILOSOPHY',
    'Judges are neutral arbiters.',
    '2. GAME PLAY ERRORS',
    'Game Play Errors are caused by incorrect play.',
    '2.4. Game Play Error — Improper Drawing at Start of Game',
    'Penalty',
    'Warning',
    'Definition',
    'A player draws the wrong number of cards during pregame procedures.',
    '2.5. Game Play Error — Game Rule Violation\tPenalty',
    'Warning',
    'Definition',
    'This infraction covers the majority of game situations.',
  ].join('\n');
  const doc = parsePolicy(text, 'ipg', 'pdf');
  assert.deepEqual(
    doc.rules.slice(2).map((r) => [r.number, r.title, r.penalty, r.text.split('\n')[0]]),
    [
      ['2.4', 'Game Play Error — Improper Drawing at Start of Game', 'Warning', 'Definition'],
      ['2.5', 'Game Play Error — Game Rule Violation', 'Warning', 'Definition'],
    ],
  );
  assert.deepEqual(doc.accounting.unaccounted, []);
});

test("pdftohtml's rendition (MTR 2021-09-24: runs placed on the page, a title in small capitals, a heading and its text in one run) reads as its PDF", () => {
  const run = (top: number, left: number, cls: string, inner: string): string =>
    `<p style="position:absolute;top:${top}px;left:${left}px;white-space:nowrap" class="${cls}">${inner}</p>`;
  const page = [
    '2021-08-29',
    '<!DOCTYPE html><html><head><title>mtg_mtr_24sep21_en-html.html</title>',
    '<style type="text/css"><!-- p {margin: 0; padding: 0;} .ft10{font-size:14px;font-family:Times;} .ft11{font-size:21px;font-family:Times;} .ft12{font-size:17px;font-family:Times;} .ft13{font-size:16px;font-family:Times;} --></style>',
    '</head><body><div id="page1-div" style="position:relative;width:918px;height:1188px;">',
    run(1094, 829, 'ft10', '1 '),
    run(105, 81, 'ft11', '<b>M</b>'),
    run(110, 104, 'ft12', '<b>AGIC: THE GATHERING </b>'),
    run(105, 330, 'ft11', '<b>T</b>'),
    run(110, 346, 'ft12', '<b>OURNAMENT </b>'),
    run(105, 481, 'ft11', '<b>R</b>'),
    run(110, 498, 'ft12', '<b>ULES</b>'),
    run(134, 81, 'ft13', '<i>Effective September 24, 2021 </i>'),
    run(188, 81, 'ft10', '<b>1.  Tournament Fundamentals </b>'),
    run(222, 81, 'ft10', '<b>1.1  Tournament Types <br/></b>Sanctioned tournaments are divided into two types: Premier and non-'),
    run(260, 81, 'ft10', 'Premier. Premier tournaments are run by Wizards of the Coast. '),
    '</div></body></html>',
  ].join('\n');
  assert.equal(detectFormat(page), 'policy-html');
  const { doc } = parsePolicyText('mtr.html', html(page), 'policy-html');
  assert.equal(doc.title, 'MAGIC: THE GATHERING TOURNAMENT RULES');
  assert.equal(doc.effectiveDate, '2021-09-24');
  assert.deepEqual(
    doc.rules.map((r) => [r.number, r.title, r.text]),
    [
      ['1', 'Tournament Fundamentals', ''],
      [
        '1.1',
        'Tournament Types',
        'Sanctioned tournaments are divided into two types: Premier and non-Premier. Premier tournaments are run by Wizards of the Coast.',
      ],
    ],
  );
  assert.deepEqual(doc.accounting.unaccounted, []);
});

test('a rendition with no title is an IPG by its infractions; a pdf2htmlEX page is refused with its reason', () => {
  assert.equal(
    policyFamilyOf('Effective February 8, 2013\n2.1 Game Play Error - Missed Trigger\n3.1 Tournament Error - Tardiness\n4.1 Unsporting Conduct - Minor'),
    'ipg',
  );
  assert.equal(policyFamilyOf('2.1 Game Play Error - Missed Trigger'), null);
  const page = '<html><head><meta name="generator" content="pdf2htmlEX"/></head><body><div>Magic: The Gathering Tournament Rules</div></body></html>';
  assert.throws(
    () => parseSource('mtr.html', Buffer.from(page)),
    (e: unknown) => e instanceof IngestError && /pdf2htmlEX/.test(e.reason),
  );
});
