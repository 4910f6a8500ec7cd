import type { CheerioAPI } from 'cheerio';
import { buildCrDocument, ruleIdentity, type SourceLine } from './crLines.js';
import { findEffectiveDate } from './effectiveDate.js';
import { isWholeEdition } from './parseMarkdown.js';
import type { ParsedDocument } from '../../src/core/types.js';

/** The parts of a DOM node this parser reads (domhandler's shape, kept structural). */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
  sourceCodeLocation?: { startLine: number } | null;
}

const SKIP_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'nav',
  'header',
  'footer',
  'aside',
  'form',
  'iframe',
  'svg',
  'button',
  'select',
  'template',
  'head',
  'menu',
  'object',
  'embed',
  'canvas',
  'img',
  'input',
  'textarea',
]);
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'section',
  'article',
  'main',
  'table',
  'tbody',
  'thead',
  'tr',
  'td',
  'th',
  'body',
  'html',
  'figure',
  'figcaption',
  'hr',
  'address',
  'details',
  'summary',
  'center',
]);
const NOISE_ATTR_RE =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|pager|pagination|footer|sidebar|breadcrumbs?|ads?|advert\w*|sponsor\w*|banner|cookie\w*|toc|share|social|comments?|related|mw-jump-link|mw-editsection|noprint|printfooter|catlinks)(?:$|[\s_-])/i;
const NOISE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'complementary']);
const ANCHOR_RE = /^(?:r|rule|cr)?[-_]?(\d{3})(?:[._-](\d{1,3})([a-z]{1,2})?)?$/i;

/**
 * Parses an already-loaded HTML page of (part of) the CR: bulleted section pages, one big
 * hypertext page with an anchor per rule, wiki articles quoting rules and glossary entries.
 * Navigation, scripts, styles, ads and footers are ignored. Never throws on broken markup.
 */
export function parseHtml($: CheerioAPI): ParsedDocument {
  const lines: SourceLine[] = [];
  const root = ($('body').get(0) ?? $.root().get(0)) as unknown as DomNode | undefined;
  let run = '';
  let runLine = 0;
  let runAnchor: string | undefined;
  let runRole: SourceLine['role'];
  let fallbackLine = 0;

  const flush = (): void => {
    const text = run.replace(/\s+/g, ' ').trim();
    if (text !== '') {
      lines.push({
        text,
        line: runLine > 0 ? runLine : ++fallbackLine,
        block: true,
        ...(runAnchor ? { anchor: runAnchor } : {}),
        ...(runRole ? { role: runRole } : {}),
      });
    }
    run = '';
    runLine = 0;
    runAnchor = undefined;
    runRole = undefined;
  };

  const walk = (node: DomNode, role: SourceLine['role']): void => {
    if (node.type === 'text') {
      if (run === '' && (node.data ?? '').trim() !== '') {
        runLine = node.sourceCodeLocation?.startLine ?? node.parent?.sourceCodeLocation?.startLine ?? 0;
      }
      run += node.data ?? '';
      if (role && run.trim() !== '') runRole ??= role;
      return;
    }
    if (node.type !== 'tag' && node.type !== 'root') return;
    const name = (node.name ?? '').toLowerCase();
    if (SKIP_TAGS.has(name) || isNoiseElement(node)) return;
    if (name === 'br') {
      flush();
      return;
    }
    const block = BLOCK_TAGS.has(name);
    if (block) flush();
    const anchor = anchorOf(node);
    if (anchor && (block || run.trim() === '')) runAnchor ??= anchor;
    const childRole = name === 'dt' ? 'term' : name === 'dd' ? 'definition' : /^h[1-6]$/.test(name) ? 'heading' : role;
    for (const child of node.children ?? []) walk(child, childRole);
    if (block) flush();
  };

  if (root) walk(root, undefined);
  flush();

  const title = $('title').first().text().replace(/\s+/g, ' ').trim() || null;
  const doc = buildCrDocument(lines, { format: 'html', title, proseTolerant: true });
  doc.effectiveDate ??= findEffectiveDate($('body').text().replace(/\s+/g, ' '));
  doc.complete = isWholeEdition(doc);
  return doc;
}

function isNoiseElement(node: DomNode): boolean {
  const a = node.attribs;
  if (!a) return false;
  if (a.role && NOISE_ROLES.has(a.role.toLowerCase())) return true;
  if (a.hidden !== undefined || a['aria-hidden'] === 'true') return true;
  if (/display\s*:\s*none/i.test(a.style ?? '')) return true;
  return NOISE_ATTR_RE.test(a.class ?? '') || NOISE_ATTR_RE.test(a.id ?? '');
}

/** The rule number an element's id or name anchors ("702.19b", "rule-702-19b", "r702_19b"). */
function anchorOf(node: DomNode): string | undefined {
  for (const v of [node.attribs?.id, node.attribs?.name]) {
    const m = v ? ANCHOR_RE.exec(v.trim()) : null;
    if (!m) continue;
    const num = m[2] === undefined ? m[1]! : `${m[1]}.${m[2]}${(m[3] ?? '').toLowerCase()}`;
    if (ruleIdentity(num)) return num;
  }
  return undefined;
}
