const m = require('/work/wt-render/functions/lib/try-render.js');
(async () => { for (const u of process.argv.slice(2)) { const r = await m.renderPage(u); console.log(u, r.status, r.title, r.routeModule, r.html.length, r.hints); } })();
