import type { Assets } from './Assets.js';
import { html } from './html.js';

/** GraphiQL for /graphql in a browser, from the project's own bundle (no CDN: it works with no network). */
export function graphiqlPage(assets: Assets): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>crkb GraphQL · GraphiQL</title>
<link rel="stylesheet" href="${assets.url('graphiql.css')}">
<style>html,body,#graphiql{height:100%;margin:0}
/* GraphiQL's themes (chosen in its settings, else the system's), their colours changed where they fall short of 4.5:1 contrast */
body.graphiql-light .graphiql-container,body.graphiql-light .CodeMirror-hints,body.graphiql-light .CodeMirror-info{--color-info:208,100%,33%;--color-tertiary:188,100%,25%;--color-secondary:242,51%,50%;--color-success:158,100%,24%;--color-primary:320,95%,38%;--color-warning:30,100%,30%}
@media (prefers-color-scheme: light){body:not(.graphiql-dark) .graphiql-container,body:not(.graphiql-dark) .CodeMirror-hints,body:not(.graphiql-dark) .CodeMirror-info{--color-info:208,100%,33%;--color-tertiary:188,100%,25%;--color-secondary:242,51%,50%;--color-success:158,100%,24%;--color-primary:320,95%,38%;--color-warning:30,100%,30%}}
body.graphiql-dark .graphiql-container,body.graphiql-dark .CodeMirror-hints,body.graphiql-dark .CodeMirror-info{--color-info:208,100%,72%;--color-tertiary:188,100%,60%;--color-secondary:242,100%,82%;--color-success:158,100%,55%;--color-primary:320,95%,78%;--color-warning:30,100%,65%}
@media (prefers-color-scheme: dark){body:not(.graphiql-light) .graphiql-container,body:not(.graphiql-light) .CodeMirror-hints,body:not(.graphiql-light) .CodeMirror-info{--color-info:208,100%,72%;--color-tertiary:188,100%,60%;--color-secondary:242,100%,82%;--color-success:158,100%,55%;--color-primary:320,95%,78%;--color-warning:30,100%,65%}}
.crkb-title{font:inherit;margin:0;color:hsl(var(--color-neutral))}.crkb-title a{color:inherit}</style>
<script src="${assets.url('graphiql.js')}" defer></script>
</head><body>
<main id="graphiql" aria-label="GraphiQL"><noscript><p>GraphiQL needs JavaScript. Without it, send queries to <code>/graphql</code> (POST JSON, or GET <code>/graphql?query=…</code>); the schema is described in <code>schema/api.graphql</code>.</p></noscript></main>
</body></html>
`.value;
}
