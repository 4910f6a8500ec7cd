/**
 * crkb's own lint rules, the README's Layout table as code (eslint.config.js passes the table in):
 * `crkb/layers` refuses a file in a folder of no layer and any import (static, `export … from`,
 * dynamic `import(…)`, `new URL('…', import.meta.url)`) of a layer its layer may not use;
 * `crkb/no-cycle` refuses an import that closes a cycle of files, type-only imports included.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The folders whose files must belong to a layer. */
const LAYERED = ['src', 'ingest'];
/** Folders of ours that layered code never imports. */
const OUTSIDE = ['test', 'bench', 'scripts'];

const posix = (p) => p.split(path.sep).join('/');
const under = (rel, dir) => rel === dir || rel.startsWith(`${dir}/`);

/** The layer (a key of `layers`) holding a root-relative path: the longest that contains it. */
function layerOf(layers, rel) {
  let best = null;
  for (const l of Object.keys(layers)) if (under(rel, l) && (best === null || l.length > best.length)) best = l;
  return best;
}

/** A string literal's value (or a template literal's without expressions), else undefined. */
function literal(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

const isImportMetaUrl = (n) =>
  n?.type === 'MemberExpression' && n.object.type === 'MetaProperty' && n.object.meta.name === 'import' && n.property.name === 'url';

/** Calls `visit(node, specifier, kind)` for every module a file names: specifier undefined when not a literal. */
function dependencyVisitors(visit) {
  const source = (n) => n.source && visit(n.source, literal(n.source), 'import');
  return {
    ImportDeclaration: source,
    ExportNamedDeclaration: source,
    ExportAllDeclaration: source,
    ImportExpression: (n) => visit(n.source, literal(n.source), 'dynamic import(…)'),
    NewExpression(n) {
      if (n.callee.type === 'Identifier' && n.callee.name === 'URL' && isImportMetaUrl(n.arguments[1]))
        visit(n.arguments[0], literal(n.arguments[0]), 'new URL(…, import.meta.url)');
    },
  };
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: "Every file in a layer, and imports only of the layers the README's Layout table allows it" },
    schema: [{ type: 'object', properties: { layers: { type: 'object' } }, required: ['layers'], additionalProperties: false }],
    messages: {
      unknownFolder: '{{folder}}/ belongs to no layer: give it one in eslint.config.js (LAYERS) and in the README (Layout)',
      unknownTarget: '{{kind}} of {{target}}, which belongs to no layer',
      outside: '{{kind}} of {{target}}: {{layer}} may not import {{folder}}/',
      forbidden: '{{kind}} of {{target}} ({{other}}): {{layer}} may import only {{allowed}} (README, Layout)',
      notLiteral: 'a {{kind}} in {{layer}} names its module by a string literal, so that lint can check it against the layers',
    },
  },
  create(context) {
    const table = context.options[0].layers;
    const root = context.cwd;
    const rel = posix(path.relative(root, context.filename));
    if (!LAYERED.some((d) => under(rel, d))) return {};
    const layer = layerOf(table, rel);
    if (layer === null) {
      return { Program: (node) => context.report({ node, messageId: 'unknownFolder', data: { folder: posix(path.dirname(rel)) } }) };
    }
    const allowed = table[layer];
    return dependencyVisitors((node, spec, kind) => {
      if (spec === undefined) {
        // a package (word-extractor) by literal is fine; a computed specifier cannot be checked
        if (kind !== 'import') context.report({ node, messageId: 'notLiteral', data: { kind, layer } });
        return;
      }
      if (!spec.startsWith('.')) return;
      const target = posix(path.relative(root, path.resolve(path.dirname(context.filename), spec)));
      const folder = OUTSIDE.find((d) => under(target, d));
      if (folder) return context.report({ node, messageId: 'outside', data: { kind, target, layer, folder } });
      if (!LAYERED.some((d) => under(target, d))) return; // dist/web's assets, package.json
      const other = layerOf(table, target);
      if (other === null) return context.report({ node, messageId: 'unknownTarget', data: { kind, target } });
      if (other === layer || allowed.includes(other)) return;
      context.report({ node, messageId: 'forbidden', data: { kind, target, other, layer, allowed: allowed.join(', ') || 'nothing of ours' } });
    });
  },
};

/** Relative imports of every .ts file below the project's source folders, read once per lint run. */
const graphs = new Map();
function diskGraph(root) {
  let g = graphs.get(root);
  if (g) return g;
  g = new Map();
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) {
        const info = ts.preProcessFile(fs.readFileSync(p, 'utf8'), true, true);
        g.set(
          p,
          info.importedFiles.map((f) => resolveTs(p, f.fileName)).filter((t) => t !== null),
        );
      }
    }
  };
  for (const d of [...LAYERED, ...OUTSIDE]) walk(path.join(root, d));
  graphs.set(root, g);
  return g;
}

/** The .ts file a relative specifier names (`./x.js` is compiled from `./x.ts`), or null. */
function resolveTs(from, spec) {
  if (!spec.startsWith('.')) return null;
  const p = path.resolve(path.dirname(from), spec);
  for (const c of [p.replace(/\.js$/, '.ts'), p.replace(/\.js$/, '.tsx'), p]) if (/\.tsx?$/.test(c) && fs.existsSync(c)) return c;
  return null;
}

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle between files, type-only imports included' },
    schema: [],
    messages: {
      cycle: 'import cycle: {{cycle}} (type-only imports count too: move what both need into the file lower down)',
    },
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const edges = [];
    return {
      ...dependencyVisitors((node, spec, kind) => {
        // a worker's or a process's entry file (new URL) is started, not imported: no cycle through it
        const target = spec === undefined || kind.startsWith('new URL') ? null : resolveTs(file, spec);
        if (target !== null && target !== file) edges.push({ node, target });
      }),
      'Program:exit'() {
        const graph = diskGraph(root);
        const reported = new Set();
        for (const { node, target } of edges) {
          if (reported.has(target)) continue;
          // breadth first from the target back to this file, through the files on disk
          const prev = new Map([[target, null]]);
          const queue = [target];
          let found = false;
          while (queue.length > 0 && !found) {
            const at = queue.shift();
            for (const next of graph.get(at) ?? []) {
              if (next === file) {
                prev.set(file, at);
                found = true;
                break;
              }
              if (!prev.has(next)) {
                prev.set(next, at);
                queue.push(next);
              }
            }
          }
          if (!found) continue;
          reported.add(target);
          const chain = [];
          for (let at = prev.get(file); at !== null; at = prev.get(at)) chain.unshift(at);
          const names = [file, ...chain, file].map((p) => posix(path.relative(root, p)));
          context.report({ node, messageId: 'cycle', data: { cycle: names.join(' → ') } });
        }
      },
    };
  },
};

export default { meta: { name: 'crkb' }, rules: { layers, 'no-cycle': noCycle } };
