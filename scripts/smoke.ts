import { printSmoke, runSmoke } from './lib/smoke';

// npm run smoke -- <url>   e.g. npm run smoke -- https://<project-id>.web.app

async function main() {
  const base = process.argv[2];
  if (!base || !/^https?:\/\//.test(base)) throw new Error('Usage: npm run smoke -- <url of the site, e.g. https://<project-id>.web.app>');
  const { passed, failed, skipped } = printSmoke(await runSmoke(base));
  console.log(`\nsmoke: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed === 0;
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
