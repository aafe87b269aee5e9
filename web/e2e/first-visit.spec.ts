import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countRequests } from '../../bench/bytes';
import { workerControls } from './pwa-helpers';

// A shopper's first visit to /, the service worker's precache included: what it costs on the wire
// and that no dashboard code comes with it (web/pwa.config.ts precaches the storefront's shell only;
// decision 014). Counted on the browser context, which sees the worker's requests too (a page's own
// listener does not).

// Issue 23 asks for at most 250 KB; before the storefront-only precache the visit was about 540 KB
// (175 KB for the page, 365 KB by the worker), and 243 KB with every asset carrying the documents'
// CSP and security headers (about 1 KB a response, some 70 responses). With those headers on
// documents only (firebase.json) it measured 238 KB. It grew to 249 KB in some 90 requests (a CI run
// found it over); with the entry's static imports in the entry's chunk (vite.config.ts), 241 KB in
// 78. About 420 bytes of every response are headers. BENCHMARKS.md records the figure.
const FIRST_VISIT_BUDGET = 250 * 1024;

interface ManifestChunk { file: string; imports?: string[]; dynamicImports?: string[] }

/** Scripts only the dashboard, the desk and the import page use: reachable from them, not from the storefront. */
function adminOnlyFiles(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(process.cwd(), 'web', 'dist', '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const closure = (keys: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(chunk.file)) return;
      seen.add(chunk.file);
      chunk.imports?.forEach(visit);
    };
    keys.forEach(visit);
    return seen;
  };
  const keys = Object.keys(manifest);
  const admin = closure(keys.filter((k) => k.startsWith('src/features/admin/')));
  const storefront = closure(keys.filter((k) => k === 'index.html' || k.startsWith('src/app/routes/')));
  return new Set([...admin].filter((file) => !storefront.has(file)));
}

test('a first visit to /, with the worker\'s precache, fetches no dashboard code and stays within its budget', async ({ browser }) => {
  const adminFiles = adminOnlyFiles();
  expect(adminFiles.size).toBeGreaterThan(0);
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, serviceWorkers: 'allow' }); // its precache is counted
  const counted = countRequests(context);
  const page = await context.newPage();
  await page.goto('/');
  await workerControls(page); // installed: its precache is complete
  await page.waitForLoadState('networkidle');
  const seen = await counted();
  await context.close();

  const total = seen.reduce((sum, r) => sum + r.bytes, 0);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const byWorker = seen.filter((r) => r.worker);
  console.log(`first visit to / with the worker: ${kb(total)} KB transferred in ${seen.length} requests (the worker's: ${kb(byWorker.reduce((sum, r) => sum + r.bytes, 0))} KB in ${byWorker.length})`);
  for (const r of [...seen].sort((a, b) => b.bytes - a.bytes).slice(0, 12)) console.log(`  ${kb(r.bytes).padStart(6)} KB ${r.worker ? 'worker' : 'page  '} ${new URL(r.url).pathname}`);
  const admin = seen.map((r) => new URL(r.url).pathname.slice(1)).filter((path) => adminFiles.has(path));
  expect(admin).toEqual([]);
  expect(total).toBeLessThanOrEqual(FIRST_VISIT_BUDGET);
});
