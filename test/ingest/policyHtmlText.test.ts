import { test } from 'node:test';
import assert from 'node:assert/strict';
import { policyHtmlText } from '../../ingest/parse/policyHtmlText.js';

test("an HTML rendition's character references are decoded once, every kind", () => {
  const { text } = policyHtmlText('<p>players&apos; decks &amp; sideboards: write &amp;lt;name&amp;gt; &#x2014; &quot;A&quot; &#8212; B&nbsp;C</p>');
  assert.equal(text.trim(), 'players\' decks & sideboards: write &lt;name&gt; \u2014 "A" \u2014 B C');
});

test('a heading and an in-page contents entry are marked by line', () => {
  const { text, contentsLinks, headingLines } = policyHtmlText('<p>1.1. <a href="#s11">Tournament Types</a></p><h2>1.1 Tournament Types</h2><p>Body.</p>');
  const lines = text.split('\n');
  const entry = lines.findIndex((l) => l.includes('1.1. Tournament Types'));
  const heading = lines.findIndex((l) => l === '1.1 Tournament Types');
  assert.ok(contentsLinks.has(entry));
  assert.ok(headingLines.has(heading));
  assert.ok(!headingLines.has(entry));
});
