/** The one HTML and XML escaper: web pages, search snippets (GraphQL, /v1), Atom feeds, the API reference. */

const ENTITIES = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#39;'],
]);
const entity = (c: string): string => ENTITIES.get(c)!;
const HTML_SPECIAL = /[&<>"']/;

// XML 1.0 forbids most control characters even escaped.
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  // (most texts have nothing to escape: a test is cheaper than a replace that changes nothing)
  return HTML_SPECIAL.test(text) ? text.replace(/[&<>"']/g, entity) : text;
}

/** Escapes text between tags only (& < >): search snippets, whose matches are marked with tags, keep their quotes. */
export function escapeSnippet(text: string): string {
  return text.replace(/[&<>]/g, entity);
}

/** Escapes text for XML content and attribute values, dropping the characters XML 1.0 forbids. */
export function escapeXml(text: string): string {
  return text.replace(INVALID_XML, '').replace(/[&<>"]/g, entity);
}
