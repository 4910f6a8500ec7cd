/* global document, MutationObserver */
// GraphiQL for /graphql, bundled from npm by scripts/buildWeb.mjs: no CDN, works offline.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/graphiql.css';

const defaultQuery = `# Every edition of the Comprehensive Rules. Run with ▶ or Ctrl-Enter.
{
  rule(number: "702.19b") {
    number
    text
    edition { effectiveDate }
  }
}
`;

// CodeMirror's input areas have no label and its scroll areas take no focus: name them for screen readers,
// and let the keyboard reach them.
function labelEditors() {
  for (const area of document.querySelectorAll('.graphiql-container .CodeMirror')) {
    const box = area.closest('.graphiql-query-editor')
      ? 'Query'
      : area.closest('.graphiql-response')
        ? 'Response'
        : (area.closest('[aria-label]')?.getAttribute('aria-label') ?? 'Editor');
    const input = area.querySelector('textarea');
    if (input && !input.hasAttribute('aria-label')) input.setAttribute('aria-label', `${box} editor`);
    const scroll = area.querySelector('.CodeMirror-scroll');
    if (scroll && scroll.getAttribute('tabindex') !== '0') scroll.setAttribute('tabindex', '0');
  }
}
new MutationObserver(labelEditors).observe(document.getElementById('graphiql'), { childList: true, subtree: true });

const root = createRoot(document.getElementById('graphiql'));
// The logo slot: the page's heading, a way back to the web app.
const logo = createElement(GraphiQL.Logo, null, createElement('h1', { className: 'crkb-title' }, createElement('a', { href: '/' }, 'crkb'), ' GraphQL'));
root.render(createElement(GraphiQL, { fetcher: createGraphiQLFetcher({ url: '/graphql' }), defaultQuery, defaultEditorToolsVisibility: false }, logo));
