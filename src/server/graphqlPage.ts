/** A query console for /graphql in a browser: plain HTML, no network beyond this server (works offline). */
export function graphqlPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>crkb GraphQL console</title>
<style>body{font:16px/1.4 system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}textarea{width:100%;font:14px ui-monospace,monospace}pre{background:#f4f4f4;padding:.5rem;overflow:auto}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}pre,textarea{background:#222;color:#eee}}</style>
</head><body><main>
<h1>crkb GraphQL console</h1>
<p>The schema is described in <code>schema/api.graphql</code>; every type, field and argument has a description (ask <code>{ __schema { types { name description } } }</code>).</p>
<form method="get" action="/graphql" id="f">
<label for="query">Query</label>
<textarea id="query" name="query" rows="10">{ rule(number: "702.19b") { number text edition { effectiveDate } } }</textarea>
<label for="variables">Variables (JSON)</label>
<textarea id="variables" name="variables" rows="3">{}</textarea>
<button type="submit">Run</button>
</form>
<pre id="out" aria-live="polite"></pre>
</main>
<script>
document.getElementById('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const out = document.getElementById('out');
  let variables = {};
  try { variables = JSON.parse(document.getElementById('variables').value || '{}'); } catch { out.textContent = 'variables are not valid JSON'; return; }
  const res = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: document.getElementById('query').value, variables }) });
  out.textContent = JSON.stringify(await res.json(), null, 2);
});
</script></body></html>`;
}
