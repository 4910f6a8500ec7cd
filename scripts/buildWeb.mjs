// Bundles the browser files of the web app into dist/web/ with esbuild, from npm packages only (no CDN):
// the page script (src/web/client/app.ts), the stylesheet, and GraphiQL (graphiql + react).
import { build } from 'esbuild';

const common = { bundle: true, minify: true, logLevel: 'warning', target: ['es2020'], legalComments: 'none' };
const started = Date.now();
await Promise.all([
  build({ ...common, entryPoints: ['src/web/client/app.ts'], outfile: 'dist/web/app.js', format: 'iife' }),
  build({ ...common, entryPoints: ['src/web/client/site.css'], outfile: 'dist/web/site.css' }),
  build({
    ...common,
    entryPoints: ['src/web/client/graphiql.js'],
    outfile: 'dist/web/graphiql.js',
    format: 'iife',
    define: { 'process.env.NODE_ENV': '"production"' },
    // GraphiQL's stylesheet embeds its fonts as data: URLs; nothing is fetched from elsewhere
    loader: { '.woff2': 'dataurl', '.woff': 'dataurl', '.ttf': 'dataurl', '.svg': 'dataurl' },
  }),
]);
console.log(`buildWeb: dist/web built in ${Date.now() - started} ms`);
