import { build } from 'esbuild';
import { webRenderOptions, webRenderPlugins } from '/work/wt-render/functions/web-render.mjs';
await build({ entryPoints: ['/work/wt-render/web/src/server/index.ts'], outfile: '/work/wt-render/functions/lib/try-render.js', bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning', ...webRenderOptions, plugins: webRenderPlugins(new URL('file:///work/wt-render/web/dist/')) , metafile: true}).then(r => { const o = Object.values(r.metafile.outputs)[0]; console.log('bytes', o.bytes); });
