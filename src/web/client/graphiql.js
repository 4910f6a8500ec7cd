/* global document */
// GraphiQL for /graphql, bundled from npm by scripts/buildWeb.mjs: no CDN, works offline.
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/graphiql.css';

const defaultQuery = `# crkb: every edition of the Comprehensive Rules. Press the play button (or Ctrl-Enter) to run.
{
  rule(number: "702.19b") {
    number
    text
    edition { effectiveDate }
  }
}
`;

const root = createRoot(document.getElementById('graphiql'));
root.render(createElement(GraphiQL, { fetcher: createGraphiQLFetcher({ url: '/graphql' }), defaultQuery, defaultEditorToolsVisibility: false }));
