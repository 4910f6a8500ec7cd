import { decodeEntities } from './decodeEntities.js';
import { isCrText } from './parseCrText.js';
import { policyFamilyOf } from './parsePolicy.js';
import { pdfText } from './pdfText.js';
import { pdftohtmlPages } from './pdftohtmlPages.js';
import { isRulingsText, isRulingsTextRelease } from './parseRulings.js';
import type { TextFormat } from '../../src/core/types.js';

const RULE_LINE_RE = /^\s*(?:[•·◦▪‣*+-]\s+|>\s*|#{1,6}\s+)?(?:\*\*|__)?\d{3}\.(?:\d{1,3}[a-z]{0,2}\.?)?(?:\*\*|__)?\s+\S/m;
const RULE_LINES_RE = new RegExp(RULE_LINE_RE.source, 'gm');

/**
 * Detects a source's format from its content (and the Content-Type it was fetched with):
 * null when it holds no rules at all (an error page, random text, an empty document).
 */
export function detectFormat(text: string, contentType?: string): TextFormat | null {
  if (text.trim() === '') return null;
  const head = text.slice(0, 4000);
  const type = (contentType ?? '').toLowerCase();
  const looksHtml =
    type.includes('html') ||
    /^\s*(?:<!doctype html|<html|<\?xml[^>]*>\s*<html)/i.test(head) ||
    (/<(?:body|div|p|ul|li|table|h[1-6])[\s>]/i.test(head) && /<\/\w+>/.test(head));
  if (looksHtml) {
    const plain = htmlText(text);
    if (isRulingsText(plain)) return 'rulings-html';
    // a tournament document (MTR, IPG, JAR) numbers its sections like CR rules ("101. Format …"): never a CR fragment
    if (policyFamilyOf(plain.replace(/\s+/g, ' ').slice(0, 3000)) !== null) return 'policy-html';
    // pdftohtml's runs (a title in small capitals: "T" "OURNAMENT") read in lines, as the parser will
    const pages = pdftohtmlPages(text);
    if (pages && policyFamilyOf(pdfText(pages.slice(0, 2)).text.slice(0, 3000)) !== null) return 'policy-html';
    const anchored = /\b(?:id|name)\s*=\s*["']?(?:r|rule|cr)?[-_]?\d{3}(?:[._-]\d{1,3}[a-z]{0,2})?["'\s>]/i.test(text);
    return RULE_LINE_RE.test(plain) || anchored ? 'html' : null;
  }
  if (isRulingsText(text)) return isRulingsTextRelease(text) ? 'rulings-text' : 'rulings-html';
  if (policyFamilyOf(text) !== null) return 'policy-text';
  if (isCrText(text)) return 'cr-text';
  const ruleLines = text.match(RULE_LINES_RE)?.length ?? 0;
  if (ruleLines === 0) return null;
  const markdown = type.includes('markdown') || /^\s{0,3}#{1,6}\s+\S/m.test(text) || /^\s*[*_]Chapter:/m.test(text) || /^\s*(?:\*\*|__)\d{3}\./m.test(text);
  return markdown ? 'markdown' : 'fragment';
}

/** The text of an HTML page, one line per block, its character references decoded once. Pure. */
export function htmlText(html: string): string {
  const text = html
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/?(?:p|div|li|ul|ol|h[1-6]|tr|td|dt|dd|blockquote|section|article)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;|&#160;/g, ' ');
  // one pass: a decoded '&' never starts another reference ("&amp;lt;" reads "&lt;")
  return decodeEntities(text);
}
