import { setGlobalOptions } from 'firebase-functions/v2';
import { onRequest } from 'firebase-functions/v2/https';
import { onSchedule } from 'firebase-functions/v2/scheduler';
import { createApiHandler } from './app';
import { adminJwtSecret, assertSafeEnvironment, assertStrongAdminSecret, runningFunctionSecrets } from './config';
import { deferBodyParseErrors, withBodyLimitCheck } from './lib/body-parse-errors';
import { createSearchHandler } from './books/search.app';
import { releaseHoldsJob } from './orders/release-holds';
import { createPagesApp } from './pages/pages.app';
import { withRelease } from './pages/release';

assertSafeEnvironment();
deferBodyParseErrors();
setGlobalOptions({ region: 'us-central1', maxInstances: 10 });

export const api = onRequest({ secrets: [adminJwtSecret], memory: '256MiB', concurrency: 40 }, createApiHandler());

// The catalogue's search (/api/books/search, /api/books/suggest, /api/admin/books): its index lives in
// the instance's memory and grows with the catalogue (230 MB at 100,000 books), so it has a function
// sized for it (issue 38; books/search.app.ts). The admin's search needs the staff session's secret.
export const search = onRequest({ secrets: [adminJwtSecret], memory: '1GiB', concurrency: 40 }, createSearchHandler());

// The home page, /books, book pages (/books/:id) and the sitemaps; Hosting rewrites them here.
export const pages = onRequest({ memory: '256MiB', concurrency: 80 }, withRelease(withBodyLimitCheck(createPagesApp())));

// Pickup orders not collected within the shop's hold days are cancelled and restocked (issue 27).
// Cloud Scheduler calls it over HTTP (an onSchedule function is an HTTP function on Cloud Run); each
// release is its order's own transaction, so an overlapping or repeated run releases nothing twice.
export const releaseHolds = onSchedule({ schedule: 'every 60 minutes', memory: '256MiB', timeoutSeconds: 300, maxInstances: 1 }, async () => {
  await releaseHoldsJob();
});

// Each function is its own Cloud Run service loading this whole bundle: only those that declare the
// admin secret (api, search) are given it, and only those refuse to start with a weak one.
assertStrongAdminSecret(process.env, runningFunctionSecrets({ api, search, pages, releaseHolds }));
