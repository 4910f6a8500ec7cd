import type { Assets } from './assets.js';
import { html } from './html.js';

/** GraphiQL for /graphql in a browser, from the project's own bundle (no CDN: it works with no network). */
export function graphiqlPage(assets: Assets): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>crkb GraphQL · GraphiQL</title>
<link rel="stylesheet" href="${assets.url('graphiql.css')}">
<style>html,body,#graphiql{height:100%;margin:0}</style>
<script src="${assets.url('graphiql.js')}" defer></script>
</head><body>
<main id="graphiql" aria-label="GraphiQL"><noscript><p>GraphiQL needs JavaScript. Without it, send queries to <code>/graphql</code> (POST JSON, or GET <code>/graphql?query=…</code>); the schema is described in <code>schema/api.graphql</code>.</p></noscript></main>
</body></html>
`.value;
}
