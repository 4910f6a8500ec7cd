import { escapeHtml } from '../../core/escapeHtml.js';
import type { openApiDocument } from './openApiDocument.js';

type Doc = ReturnType<typeof openApiDocument>;
type Schema = Record<string, unknown>;

/** A schema's text field (description, summary, type), '' when it holds none. */
const str = (v: unknown, none = ''): string => (typeof v === 'string' ? v : none);

/** A schema as a short type expression: "string | null", "LookupRule[]", "object". */
function typeOf(s: Schema | undefined): string {
  if (!s) return '';
  if (typeof s.$ref === 'string') {
    const name = s.$ref.split('/').at(-1)!;
    return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
  }
  if (Array.isArray(s.oneOf)) return (s.oneOf as Schema[]).map(typeOf).join(' | ');
  if (s.type === 'array') return `${typeOf(s.items as Schema)}[]`;
  const t = Array.isArray(s.type) ? (s.type as string[]).join(' | ') : str(s.type, 'any');
  return escapeHtml(Array.isArray(s.enum) ? `${t}: ${(s.enum as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` : t);
}

function propertiesTable(s: Schema): string {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const rows = Object.entries(props).map(
    ([name, p]) =>
      `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? '' : ' <small>optional</small>'}</td><td>${typeOf(p)}</td><td>${escapeHtml(str(p.description))}${
        p.type === 'object' || (p.type === 'array' && (p.items as Schema | undefined)?.type === 'object')
          ? propertiesTable((p.type === 'array' ? p.items : p) as Schema)
          : ''
      }</td></tr>`,
  );
  return `<table><tr><th>field</th><th>type</th><th>meaning</th></tr>${rows.join('')}</table>`;
}

/** The OpenAPI document rendered as one self-contained HTML page (no scripts, no CDN). */
export function renderApiReference(doc: Doc): string {
  const server = doc.servers[0]!.url;
  const ops: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods as Record<string, Schema>)) {
      const params = (op.parameters ?? []) as Schema[];
      const body = (op.requestBody as Schema | undefined)?.content as Record<string, { schema: Schema }> | undefined;
      const responses = Object.entries(op.responses as Record<string, { description: string; content?: Record<string, { schema: Schema }> }>);
      const example =
        method === 'post'
          ? `curl -X POST '${server}${path}' -H 'Content-Type: application/json' -d '{"text": "See rule 706.10.", "asOf": "2021-06-18"}'`
          : `curl '${server}${path.replace('{number}', '702.19b').replace('{edition}', '2021-07-23')}${path === '/v1/lookup' ? '?q=trample&amp;format=text' : path === '/v1/search' ? '?q=combat+damage' : ''}'`;
      ops.push(`<section id="op-${escapeHtml(String(op.operationId))}">
<h2><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h2>
<p><strong>${escapeHtml(str(op.summary))}</strong></p>
${op.description ? `<p>${escapeHtml(str(op.description))}</p>` : ''}
${
  params.length
    ? `<h3>Parameters</h3><table><tr><th>name</th><th>in</th><th>type</th><th>meaning</th></tr>${params
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(String(p.name))}</code>${p.required ? ' <small>required</small>' : ''}</td><td>${escapeHtml(String(p.in))}</td><td>${typeOf(p.schema as Schema)}</td><td>${escapeHtml(str(p.description))}</td></tr>`,
        )
        .join('')}</table>`
    : ''
}
${
  body
    ? `<h3>Request body</h3>${Object.entries(body)
        .map(([type, c]) => `<p><code>${escapeHtml(type)}</code>: ${typeOf(c.schema)}</p>`)
        .join('')}`
    : ''
}
<h3>Responses</h3><table><tr><th>status</th><th>meaning</th><th>content</th></tr>${responses
        .map(
          ([status, r]) =>
            `<tr><td>${escapeHtml(status)}</td><td>${escapeHtml(r.description)}</td><td>${Object.entries(r.content ?? {})
              .map(([type, c]) => `<code>${escapeHtml(type)}</code> ${typeOf(c.schema)}`)
              .join('<br>')}</td></tr>`,
        )
        .join('')}</table>
<pre tabindex="0">${example}</pre>
</section>`);
    }
  }
  const schemas = Object.entries(doc.components.schemas as Record<string, Schema>).map(
    ([name, s]) =>
      `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${s.description ? `<p>${escapeHtml(str(s.description))}</p>` : ''}${propertiesTable(s)}</section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} — API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f4f4f4;padding:.6rem;overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
td table{margin:.3rem 0 0}.method{background:#234;color:#fff;padding:0 .4rem;border-radius:3px;font-size:.8em}small{color:#595959}
</style></head><body>
<h1>${escapeHtml(doc.info.title)}</h1>
<p>${escapeHtml(doc.info.description)}</p>
<p>Server: <code>${escapeHtml(server)}</code> · machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escapeHtml(doc.openapi)}) · GraphQL: <a href="/graphql">/graphql</a></p>
<nav><ul>${Object.entries(doc.paths)
    .flatMap(([path, m]) =>
      Object.entries(m as Record<string, Schema>).map(
        ([method, op]) =>
          `<li><a href="#op-${escapeHtml(String(op.operationId))}">${method.toUpperCase()} ${escapeHtml(path)}</a> — ${escapeHtml(String(op.summary))}</li>`,
      ),
    )
    .join('')}</ul></nav>
${ops.join('\n')}
<h2>Schemas</h2>
${schemas.join('\n')}
</body></html>
`;
}
