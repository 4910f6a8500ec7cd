import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeBuffer } from '../../ingest/parse/decode.js';
import { loadHtml } from '../../ingest/parse/loadHtml.js';
import { parseHtml } from '../../ingest/parse/parseHtml.js';
import { detectFormat } from '../../ingest/parse/detectFormat.js';

const corpus = path.resolve(process.cwd(), '../shared/corpus');
const fixtures = path.resolve(process.cwd(), 'test/fixtures/html');
const official = decodeBuffer(fs.readFileSync(path.join(corpus, 'rulesraker/2022-11-18.txt'))).text;

interface Plain {
  number: string;
  text: string;
  examples: string[];
}

/** Independent extraction: the rules of the given sections, by a plain line regex over the official text. */
function officialRules(sections: string[]): Plain[] {
  const lines = official.split('\n');
  const out: Plain[] = [];
  let inside = false;
  for (const line of lines) {
    const rule = /^(\d{3}(?:\.\d+[a-z]?)?)\.? (.+)$/.exec(line);
    if (rule && /^\d{3}/.test(rule[1]!)) {
      inside = sections.includes(rule[1]!.slice(0, 3));
      if (inside) out.push({ number: rule[1]!, text: collapse(rule[2]!), examples: [] });
      continue;
    }
    const ex = /^Example: (.+)$/.exec(line);
    if (ex && inside) out[out.length - 1]!.examples.push(collapse(ex[1]!));
  }
  // Drop the table-of-contents entries: a section number seen twice keeps its later (body) entry.
  const seen = new Map<string, number>();
  out.forEach((r, i) => seen.set(r.number, i));
  return out.filter((r, i) => seen.get(r.number) === i);
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function kindOf(n: string): 'section' | 'rule' | 'subrule' {
  return /^\d{3}$/.test(n) ? 'section' : /[a-z]$/.test(n) ? 'subrule' : 'rule';
}

/** Shape (a): one section per page as nested bulleted lists, examples after a line break. */
function sectionListPage(rules: Plain[]): string {
  const [sec, ...rest] = rules;
  let html = '<ul class="rules">\n';
  let openSub = false;
  for (const r of rest) {
    const ex = r.examples.map((e) => `<br><span class="example"><em>Example:</em> ${escapeHtml(e)}</span>`).join('');
    if (kindOf(r.number) === 'rule') {
      if (openSub) html += '</ul></li>\n';
      html += `<li><strong>${r.number}.</strong> ${escapeHtml(r.text)}${ex}`;
      const hasSubs = rest.some((s) => s.number.startsWith(r.number) && kindOf(s.number) === 'subrule');
      if (hasSubs) {
        html += '\n<ul>\n';
        openSub = true;
      } else {
        html += '</li>\n';
        openSub = false;
      }
    } else {
      html += `  <li>${r.number} ${escapeHtml(r.text)}${ex}</li>\n`;
    }
  }
  if (openSub) html += '</ul></li>\n';
  html += '</ul>';
  const title = `${sec!.number}. ${sec!.text}`;
  return fs.readFileSync(path.join(fixtures, 'section-list-template.html'), 'utf8').replaceAll('<!--TITLE-->', escapeHtml(title)).replace('<!--RULES-->', html);
}

/** Shape (b): one hypertext page, an anchor per rule (ids, names, numbers sometimes only in the anchor). */
function hypertextPage(rules: Plain[]): string {
  let html = '';
  rules.forEach((r, i) => {
    const linked = escapeHtml(r.text).replace(/\b(rule )(\d{3}\.\d+[a-z]?)/g, '$1<a href="#$2">$2</a>');
    const kind = kindOf(r.number);
    if (kind === 'section') html += `<h2 id="${r.number}">${r.number}. ${linked}</h2>\n`;
    else if (kind === 'rule') html += `<p class="rule" id="${r.number}"><a href="#${r.number}">${r.number}.</a> ${linked}</p>\n`;
    else if (i % 2 === 0) html += `<p class="subrule" id="${r.number}">${linked}</p>\n`;
    else html += `<p class="subrule"><a name="${r.number}"></a><b>${r.number}</b> ${linked}</p>\n`;
    for (const e of r.examples) html += `<p class="example">Example: ${escapeHtml(e)}</p>\n`;
  });
  return fs
    .readFileSync(path.join(fixtures, 'hypertext-template.html'), 'utf8')
    .replace('<!--DATE-->', 'These rules are effective as of November 18, 2022.')
    .replace('<!--RULES-->', html);
}

function plain(doc: ReturnType<typeof parseHtml>): Plain[] {
  return doc.rules.map((r) => ({ number: r.number, text: collapse(r.text), examples: r.examples.map(collapse) }));
}

test('official extraction sanity: 607 has its subrules and 702.19b two examples', () => {
  const r607 = officialRules(['607']);
  assert.equal(r607[0]!.number, '607');
  assert.ok(r607.some((r) => r.number === '607.2q'));
  const r702 = officialRules(['702']);
  assert.equal(r702.find((r) => r.number === '702.19b')!.examples.length, 2);
});

test('shape (a): a bulleted section page parses to the official rules of 2022-11-18', () => {
  const want = officialRules(['607']);
  const html = sectionListPage(want);
  assert.equal(detectFormat(html, 'text/html; charset=utf-8'), 'html');
  const doc = parseHtml(loadHtml(html));
  assert.equal(doc.format, 'html');
  assert.equal(doc.family, 'cr');
  assert.equal(doc.complete, false);
  assert.deepEqual(plain(doc), want);
  assert.equal(doc.rules.find((r) => r.number === '607.2a')!.parent, '607.2');
  assert.deepEqual(doc.accounting.unaccounted, []);
  assert.ok(!doc.rules.some((r) => /Advertisement|Back to top|Casting Spells/.test(r.text)));
});

test('shape (b): a hypertext page with an anchor per rule parses to the official rules', () => {
  const want = officialRules(['700', '701', '702']);
  assert.ok(want.length > 500);
  const doc = parseHtml(loadHtml(hypertextPage(want)));
  assert.equal(doc.effectiveDate, '2022-11-18');
  assert.equal(doc.title, 'Magic: The Gathering Comprehensive Rules (hypertext)');
  const got = plain(doc);
  assert.equal(got.length, want.length);
  for (let i = 0; i < want.length; i++) assert.deepEqual(got[i], want[i], `rule #${i} ${want[i]!.number}`);
  assert.deepEqual(doc.accounting.unaccounted, []);
  const b = doc.rules.find((r) => r.number === '702.19b')!;
  assert.equal(b.kind, 'subrule');
  assert.equal(b.parent, '702.19');
  assert.ok(b.line > 10, 'line numbers come from the HTML source');
});

test('shape (c): a wiki article yields its quoted rules, examples and glossary entry, not its prose', () => {
  const html = fs.readFileSync(path.join(fixtures, 'wiki-trample.html'), 'utf8');
  assert.equal(detectFormat(html), 'html');
  const doc = parseHtml(loadHtml(html));
  const want = officialRules(['702']).filter((r) => ['702.19', '702.19a', '702.19b', '702.19g'].includes(r.number));
  assert.deepEqual(plain(doc), want);
  assert.equal(doc.glossary.length, 1);
  assert.equal(doc.glossary[0]!.term, 'Trample');
  const i = official.split('\n').indexOf('Trample', 1000);
  assert.equal(doc.glossary[0]!.definition, official.split('\n')[i + 1]);
  assert.ok(!doc.rules.some((r) => /Log in|Retrieved from|Keywords|edit/.test(r.text)));
});

test('broken HTML does not crash and keeps what it can read', () => {
  const doc = parseHtml(loadHtml(fs.readFileSync(path.join(fixtures, 'broken.html'), 'utf8')));
  assert.deepEqual(
    doc.rules.map((r) => r.number),
    ['607', '607.1', '607.1a', '607.2', '607.2a'],
  );
  assert.ok(!doc.rules.some((r) => r.number.startsWith('999')), 'script content is ignored');
  assert.equal(doc.rules.find((r) => r.number === '607.2a')!.text, 'If an object has an activated or triggered ability printed on it');
  // Worse than broken: not HTML at all, or markup soup.
  assert.doesNotThrow(() => parseHtml(loadHtml('<<<>>><p<li>702.1. x</p></li></ul></html></html>')));
  assert.doesNotThrow(() => parseHtml(loadHtml('\u0000\u0001 binary-ish')));
});

test('a page with no rules parses to rules=[] and is detected as holding none', () => {
  const html = fs.readFileSync(path.join(fixtures, 'no-rules.html'), 'utf8');
  const doc = parseHtml(loadHtml(html));
  assert.deepEqual(doc.rules, []);
  assert.ok(doc.warnings.some((w) => w.code === 'no-rules'));
  assert.equal(detectFormat(html, 'text/html'), null);
});
