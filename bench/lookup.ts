/**
 * bench/lookup: how often a bot's lookup shows the right rules first. Queries are written the way
 * players and judges type them to rules bots (sloppy numbers, keywords, phrases, interactions,
 * questions, typos, editions in the query, old editions), each with the rules (or glossary
 * entries, "g:Term") a correct answer shows first. Prints precision at 1 and at 3 and every miss,
 * over the real corpus database, through KnowledgeBase.lookup (what every face calls).
 *
 *   node dist/bench/lookup.js [--db data/crkb.db] [--baseline DIR] [--verbose]
 *
 * --baseline DIR: the same set through another built checkout's query layer, side by side.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { KnowledgeBase } from '../src/query/KnowledgeBase.js';

/** A query, the rules (or "g:Term" glossary entries) a right answer shows first, and the edition it must answer from. */
type Case = [query: string, expected: string, edition?: string];

// `edition`: a date (the answer is that day's edition) or a year (an edition in force during that year)
const CASES: Case[] = [
  // numbers as typed, pasted and mistyped
  ['702.19b', '702.19b'],
  ['CR 702.19b', '702.19b'],
  ['cr702.19b', '702.19b'],
  ['702.19B', '702.19b'],
  ['!cr 702.19b', '702.19b'],
  ['/cr 702.19b', '702.19b'],
  ['?cr 704.5j', '704.5j'],
  ['702,19b', '702.19b'],
  ['702.19b)', '702.19b'],
  ['(702.19b)', '702.19b'],
  ['702.19b.', '702.19b'],
  ['702.19b?', '702.19b'],
  ['"702.19b"', '702.19b'],
  ['rule 704.5k', '704.5k'],
  ['rules 601.2', '601.2'],
  ['cr 613', '613'],
  ['613.1f', '613.1f'],
  ['§ 903.8', '903.8'],
  ['#100.6', '100.6'],
  ['CR: 702.2c', '702.2c'],
  ['cr#702.2c', '702.2c'],
  ['702.2c,', '702.2c'],
  ['702 . 2c', '702.2c'],
  ['rule 510.1c-d', '510.1c'],
  ['601.2a-h', '601.2a'],
  ['601.2a–601.2h', '601.2a'],
  ['704.5a to 704.5d', '704.5a'],
  ['702.19b ex 2', '702.19b'],
  ['702.19b example 1', '702.19b'],
  ['what does 704.5j say', '704.5j'],
  ['what is rule 302.6', '302.6'],
  ['cr 702.19b please', '702.19b'],
  // keywords
  ['trample', '702.19'],
  ['Trample', '702.19'],
  ['deathtouch', '702.2'],
  ['first strike', '702.7'],
  ['double strike', '702.4'],
  ['flying', '702.9'],
  ['hexproof', '702.11'],
  ['ward', '702.21'],
  ['indestructible', '702.12'],
  ['lifelink', '702.15'],
  ['menace', '702.111'],
  ['cascade', '702.85'],
  ['storm', '702.40'],
  ['convoke', '702.51'],
  ['delve', '702.66'],
  ['flashback', '702.34'],
  ['split second', '702.61'],
  ['toxic', '702.164'],
  ['infect', '702.90'],
  ['scry', '701.18'],
  ['mill', '701.13'],
  ['surveil', '701.42'],
  ['proliferate', '701.27'],
  ['venture into the dungeon', '701.46'],
  ['equip', '702.6'],
  ['protection', '702.16'],
  ['banding', '702.22'],
  ['bands with other', '702.22b 702.22'],
  ['vigilance', '702.20'],
  ['haste', '702.10'],
  // phrases: keywords with their arguments, glossary terms
  ['protection from red', '702.16'],
  ['what is protection from red', '702.16'],
  ['pro red', '702.16'],
  ['protection from creatures', '702.16'],
  ['hexproof from black', '702.11d 702.11'],
  ['trample over planeswalkers', '702.19c 702.19'],
  ['equip {2}', '702.6'],
  ['ward 2', '702.21'],
  ['ward—pay 3 life', '702.21'],
  ['kicker {1}{R}', '702.33'],
  ['cycling {2}', '702.29'],
  ['flashback {3}{R}', '702.34'],
  ['toxic 2', '702.164'],
  ['annihilator 2', '702.86'],
  ['forestwalk', '702.14'],
  ['swampwalk', '702.14'],
  ['legend rule', '704.5j g:Legend Rule'],
  ['the legend rule', '704.5j g:Legend Rule'],
  ['state based actions', '704'],
  ['state-based actions', '704'],
  ['sba', '704'],
  ['etb', 'g:Enters the Battlefield 603.6a'],
  ['apnap', '101.4 g:Active Player, Nonactive Player Order'],
  ['dies', '700.4 g:Dies'],
  ['token', '111.1 111 g:Token'],
  ['mana value', '202.3 g:Mana Value'],
  ['cmc', '202.3 g:Mana Value'],
  ['combat damage', '510 g:Combat Damage'],
  ['summoning sickness', '302.6 g:Summoning Sickness Rule'],
  ['commander tax', '903.8'],
  ['commander damage', '903.10a 704.6c 104.3j'],
  ['priority', '117 117.1 g:Priority'],
  ['the stack', '405 405.1 g:Stack'],
  ['layers', '613 613.1'],
  ['timestamp order', '613.7 g:Timestamp Order'],
  ['dependency', '613.8 g:Dependency'],
  ['copiable values', '707.2 g:Copiable Values'],
  ['replacement effects', '614 g:Replacement Effect'],
  ['prevention effect', '615 g:Prevention Effect'],
  ['cleanup step', '514'],
  ['mulligan', '103.5 g:Mulligan'],
  ['face down', '708 g:Face Down'],
  ['double faced cards', '712'],
  ['the monarch', '722 g:Monarch'],
  ['day and night', '727 702.145'],
  ['two headed giant', '810 g:Two-Headed Giant Variant'],
  ['lethal damage', '120.6 g:Lethal Damage'],
  ['poison counters', '122.1f 704.5c g:Poison Counter'],
  ['maximum hand size', '402.2 g:Maximum Hand Size'],
  ['casting a spell', '601 601.2'],
  ['mana abilities', '605 g:Mana Ability'],
  ['damage assignment order', '509.2 g:Damage Assignment Order'],
  // questions
  ['how do layers work', '613 613.1'],
  ['how do the layers work?', '613 613.1'],
  ['what are layers', '613 613.1'],
  ['drawing from an empty library', '704.5b 121.4'],
  ['what happens if i draw from an empty library', '704.5b 121.4'],
  ['what happens when you have 0 life', '704.5a 119.6'],
  ['what happens at 10 poison counters', '704.5c 122.1f 104.3d'],
  ['what does trample do', '702.19'],
  ['how does trample work', '702.19'],
  ['how does ward work?', '702.21'],
  ['what is deathtouch', '702.2'],
  ['what does the legend rule say', '704.5j g:Legend Rule'],
  ['can a creature with summoning sickness block', '302.6 g:Summoning Sickness Rule'],
  ['how much does it cost to cast my commander again', '903.8'],
  ['when does a player lose the game', '104.3 104.1 g:Lose the Game'],
  ['what is a token?', '111.1 111 g:Token'],
  ['what is the stack', '405 405.1 g:Stack'],
  ['define dies', '700.4 g:Dies'],
  ['meaning of priority', '117 117.1 g:Priority'],
  ['how does protection work', '702.16'],
  ['what is first strike', '702.7'],
  ['does a 0/0 die', '704.5f'],
  ['creature with 0 toughness', '704.5f'],
  ['planeswalker with 0 loyalty', '704.5i'],
  ['aura attached to an illegal object', '704.5m'],
  // interactions: two keywords
  ['does deathtouch work with trample', '702.2c'],
  ['deathtouch trample', '702.2c'],
  ['deathtouch and trample', '702.2c'],
  ['trample + deathtouch', '702.2c'],
  ['deathtouch + first strike', '702.2 702.7 702.2b 702.7b'],
  ['first strike and double strike', '702.4b 702.7b 702.4'],
  ['double strike first strike', '702.4b 702.7b 702.4'],
  ['hexproof vs shroud', '702.11 702.18'],
  ['lifelink and double strike', '702.15 702.4'],
  ['trample and protection', '702.19b 702.16'],
  ['indestructible deathtouch', '702.12b 702.2b 702.12'],
  // typos
  ['trampel', '702.19'],
  ['deathtuch', '702.2'],
  ['first strik', '702.7'],
  ['hexprof', '702.11'],
  ['indestructable', '702.12'],
  ['lifelnk', '702.15'],
  ['comabt damage', '510 g:Combat Damage'],
  ['protecion from red', '702.16'],
  ['legned rule', '704.5j g:Legend Rule'],
  ['state based action', '704'],
  ['cascde', '702.85'],
  ['vigilence', '702.20'],
  ['flahsback', '702.34'],
  ['layer sytem', '613 613.1'],
  // editions in the query
  ['702.19b in 2010', '702.19b', '2010'],
  ['502.9b (2005)', '502.9b', '2005'],
  ['502.9b 2005', '502.9b', '2005'],
  ['trample in 2005', '502.9', '2005'],
  ['502.2 in 2004', '502.2', '2004'],
  ['702.19b in MH2', '702.19b', '2021-06-18'],
  ['702.19c AFR', '702.19c', '2021-07-23'],
  ['AFR 702.19c', '702.19c', '2021-07-23'],
  ['702.19b (AFR)', '702.19b', '2021-07-23'],
  ['trample in MH2', '702.19', '2021-06-18'],
  ['ward in STX', '702.21', '2021-04-22'],
  ['702.21 in khm', '702.21', '2021-02-05'],
  ['rule 702.19b as of 2021-07-01', '702.19b', '2021-07-01'],
  ['702.19b on 2021-07-01', '702.19b', '2021-07-01'],
  ['702.19b 2021-07-23', '702.19b', '2021-07-23'],
  ['cr 702.19b [2015]', '702.19b', '2015'],
  ['protection in 1999', '502.7', '1999'],
  ['first strike (1999)', '502.2', '1999'],
  ['legend rule in 2010', '704.5k g:Legend Rule', '2010'],
  ['mana burn in 2005', '300.3', '2005'],
  ['mana burn', 'g:Mana Burn (Obsolete) g:Mana Burn'],
  ['interrupt in 1999', 'g:Interrupt (Obsolete) g:Interrupt', '1999'],
  ['502.9 2003', '502.9', '2003'],
  // old editions by number
  ['cr 420.5 in 2005', '420.5', '2005'],
  ['212.6 (2008)', '212.6', '2008'],
  ['502.7b in 2006', '502.7b', '2006'],
];

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.CRKB_DB ?? 'data/crkb.db' },
    baseline: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const dbFile = resolve(values.db);
if (!existsSync(dbFile)) {
  console.error(`bench/lookup: ${dbFile} missing; build it with "npx crkb ingest --archive ../shared/corpus"`);
  process.exit(1);
}

interface Result {
  at1: number;
  at3: number;
  misses: string[];
  cpuUs: number;
}

/** What an answer shows first: its rules in order, then its glossary entries ("g:Term"). */
function shown(a: { kind: string; matched: string | null; rules: Array<{ number: string }>; glossary: Array<{ term: string }> }): string[] {
  const rules = a.rules.map((r) => r.number);
  const glossary = a.glossary.map((g) => `g:${g.term}`);
  // a glossary answer shows its entry first; a keyword answer its rule (the entry follows)
  return a.kind !== 'keyword' && a.glossary.some((g) => g.term === a.matched) ? [...glossary, ...rules] : [...rules, ...glossary];
}

function run(kb: KnowledgeBase): Result {
  const latest = kb.resolveEdition('latest').edition;
  const r: Result = { at1: 0, at3: 0, misses: [], cpuUs: 0 };
  for (const [q, exp, ed] of CASES) {
    // "704.5j g:Legend Rule": numbers and glossary terms (which may hold spaces)
    const want = exp.split(/ (?=g:|\d)/);
    let got: string[] = [];
    let edition = '';
    const t0 = process.cpuUsage();
    try {
      const a = kb.lookup(latest, q);
      got = shown(a);
      edition = a.edition.effectiveDate;
    } catch (e) {
      got = [`error: ${(e as Error).message.slice(0, 60)}`];
    }
    const t = process.cpuUsage(t0);
    r.cpuUs += t.user + t.system;
    const editionOk = ed === undefined || (ed.length === 4 ? editionInYear(kb, edition, ed) : edition === kb.resolveEdition(ed).edition.effectiveDate);
    const hit = (k: number): boolean => editionOk && got.slice(0, k).some((x) => want.includes(x));
    if (hit(1)) r.at1++;
    if (hit(3)) r.at3++;
    else
      r.misses.push(
        `${JSON.stringify(q)}: want ${want.join(' | ')}${ed ? ` (${ed})` : ''}; got ${got.slice(0, 3).join(' ') || 'nothing'}${ed ? ` (${edition})` : ''}`,
      );
  }
  return r;
}

/** True when `date` is an edition in force at some time during `year`. */
function editionInYear(kb: KnowledgeBase, date: string, year: string): boolean {
  if (date.startsWith(year)) return true;
  try {
    return kb.resolveEdition(`${year}-01-01`).edition.effectiveDate === date;
  } catch {
    return false;
  }
}

async function measure(dir: string): Promise<Result> {
  const mod = (await import(pathToFileURL(resolve(dir, 'dist/src/query/KnowledgeBase.js')).href)) as { KnowledgeBase: typeof KnowledgeBase };
  const kb = mod.KnowledgeBase.open(dbFile).warm();
  try {
    run(kb); // warm every path once
    return run(kb);
  } finally {
    kb.close();
  }
}

const here = resolve(import.meta.dirname, '../..');
const rows: Array<[string, Result]> = [['this checkout', await measure(here)]];
if (values.baseline) rows.push([`baseline ${values.baseline}`, await measure(resolve(values.baseline))]);
const pct = (n: number): string => `${((100 * n) / CASES.length).toFixed(1)} %`;
console.log(`bench/lookup: ${CASES.length} queries over ${dbFile}`);
console.log(`${'checkout'.padEnd(40)} ${'P@1'.padStart(8)} ${'P@3'.padStart(8)} ${'CPU/lookup'.padStart(12)}`);
for (const [name, r] of rows) {
  console.log(`${name.padEnd(40)} ${pct(r.at1).padStart(8)} ${pct(r.at3).padStart(8)} ${`${(r.cpuUs / CASES.length).toFixed(0)} µs`.padStart(12)}`);
}
for (const [name, r] of rows) {
  console.log(`\nmisses at 3 (${name}): ${r.misses.length}`);
  for (const m of values.verbose || name === 'this checkout' ? r.misses : r.misses.slice(0, 10)) console.log(`  ${m}`);
}
