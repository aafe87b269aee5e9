import { defineConfig } from '@playwright/test';
import { SHOP_URL } from './scripts/lib/env';

// Debian's Chromium (never a downloaded browser), against the built site on the Hosting emulator.
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

/**
 * What runs alone, after the rest: a spec file named `*.serial.spec.ts`, or one test tagged
 * `{ tag: '@serial' }`. Those change or count what every test sees (the shop's settings, the files
 * Hosting serves, the shop-wide figures, the newest books). Every other test runs beside others on
 * several workers and makes its own data (docs/testing.md). Playwright matches `grep` against the
 * project name, the file name, the titles and the tags.
 */
export const SERIAL = /\.serial\.spec\.ts\b|@serial\b/;
/** Workers for the parallel files: 2 cores run 2 Chromiums and the emulators (BOOKSTORE_E2E_WORKERS to change). */
export const E2E_WORKERS = Number(process.env.BOOKSTORE_E2E_WORKERS) || 2;

export default defineConfig({
  testDir: 'web/e2e',
  outputDir: 'artifacts/playwright',
  // Any test may run in any worker, beside any other (a long file no longer holds one worker to the
  // end); each test makes its own data (docs/testing.md). The serial project has one worker.
  fullyParallel: true,
  workers: E2E_WORKERS,
  // No retries: a test that needs one is a failing test.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 }, // a busy CI machine's page loads; a broken feature still fails
  // scripts/test.ts runs the two projects one after the other, each with its own report.
  reporter: [['list'], ['json', { outputFile: process.env.BOOKSTORE_PLAYWRIGHT_REPORT ?? 'artifacts/playwright-results.json' }]],
  use: {
    baseURL: SHOP_URL,
    // Traces cost every test time: BOOKSTORE_TRACE=1 keeps one for each failing test.
    trace: process.env.BOOKSTORE_TRACE ? 'retain-on-failure' : 'off',
    // A failing test's last screen, beside its error-context.md (taken only on failure: free otherwise).
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
  },
  projects: [
    // Service workers blocked: each fresh context would install the shop's worker and precache about
    // 60 files (98 requests for a first home page against 36), the largest share of the browser
    // tests' requests. The specs of the worker's features (pwa, offline, first-visit, wishlist,
    // counter, counter-gift-cards) allow it with test.use; those are where the shopper's cached path runs.
    { name: 'parallel', grepInvert: SERIAL, use: { browserName: 'chromium', serviceWorkers: 'block' } },
    // One worker; `npm test` starts it once the parallel project is done, so nothing runs beside it.
    { name: 'serial', grep: SERIAL, workers: 1, fullyParallel: false, use: { browserName: 'chromium' } },
  ],
});
