import { runSmoke } from './lib/smoke';

// npm run smoke -- <url>   e.g. npm run smoke -- https://<project-id>.web.app

async function main() {
  const base = process.argv[2];
  if (!base || !/^https?:\/\//.test(base)) throw new Error('Usage: npm run smoke -- <url of the site, e.g. https://<project-id>.web.app>');
  const results = await runSmoke(base);
  for (const r of results) console.log(`${r.status === 'pass' ? 'ok  ' : r.status === 'fail' ? 'FAIL' : 'skip'} ${r.name}: ${r.detail}`);
  const failed = results.filter((r) => r.status === 'fail').length;
  console.log(`\nsmoke: ${results.length - failed - results.filter((r) => r.status === 'skip').length} passed, ${failed} failed, ${results.filter((r) => r.status === 'skip').length} skipped`);
  return failed === 0;
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
