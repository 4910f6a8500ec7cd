import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, escapeSnippet, escapeXml } from '../../src/core/escapeHtml.js';

const hostile = `<a href="x" onclick='y'>Tom & Jerry</a>\u0000\u0007`;

test('HTML: content and quoted attribute values, both quotes escaped', () => {
  assert.equal(escapeHtml(hostile), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;\u0000\u0007');
  assert.equal(escapeHtml('&amp;'), '&amp;amp;', 'escaped text is escaped again: nothing passes as markup');
});

test('snippets: text between tags keeps its quotes', () => {
  assert.equal(escapeSnippet(`can't "trample" <b> & more`), `can't "trample" &lt;b&gt; &amp; more`);
});

test('XML: the characters XML 1.0 forbids are dropped, the rest escaped as in attributes', () => {
  assert.equal(escapeXml(hostile), `&lt;a href=&quot;x&quot; onclick='y'&gt;Tom &amp; Jerry&lt;/a&gt;`);
  assert.equal(escapeXml('tab\there\nline\r\uffff'), 'tab\there\nline\r');
});
