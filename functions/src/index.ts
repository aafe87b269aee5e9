import { setGlobalOptions } from 'firebase-functions/v2/options';
import { onDocumentCreated, onDocumentWritten } from 'firebase-functions/v2/firestore';
import { onRequest } from 'firebase-functions/v2/https';
import { onSchedule } from 'firebase-functions/v2/scheduler';
import { adminJwtSecret, assertSafeEnvironment, assertStrongAdminSecret, runningFunctionSecrets, SEND_MAIL_TIMEOUT_S, smtpUriSecret, stripeSecretKey, stripeWebhookSecret } from './config';
import { deferBodyParseErrors } from './lib/body-parse-errors';
import { served } from './lib/served';
import { assertStripeConfig } from './payments/card-config';

// Every function's trigger and options, and none of their code: each one's code is its own bundle,
// loaded only by the instance that serves it (lib/served.ts; functions/build.mjs builds every
// src/serve/<file>.ts into lib/<file>.js). A new function is one entry here plus its serve/ file:
//   export const releaseHolds = onSchedule({ schedule: 'every 60 minutes', ... },
//     served('releaseHolds', () => import('./serve/release-holds')));
// (an import of its module here instead works too, but every other function then loads it).

assertSafeEnvironment();
deferBodyParseErrors();
// No minInstances: every function scales to zero; one warm instance would cost about $12 a month
// per function, more than the rest of a small shop's bill (decision 034, which says when to change it).
setGlobalOptions({ region: 'us-central1', maxInstances: 10 });

// Card payments (issue 35): on when both Stripe secrets hold Stripe values, off (cash only) when both are `off`.
export const api = onRequest(
  { secrets: [adminJwtSecret, stripeSecretKey, stripeWebhookSecret], memory: '256MiB', concurrency: 40 },
  served('api', () => import('./serve/api')),
);

// The catalogue's search (/api/books/search, /api/books/suggest, /api/admin/books): its index lives in
// the instance's memory and grows with the catalogue (at 100,000 books about 0.8 GB to load it:
// bench/search.ts --memory), so it has a function sized for it (issue 38; books/search.app.ts). It
// only loads the snapshots buildSearchIndex publishes, the previous one serving until the next is
// loaded (decision 044). The admin's search needs the staff session's secret.
export const search = onRequest({ secrets: [adminJwtSecret], memory: '2GiB', concurrency: 40 }, served('search', () => import('./serve/search')));

// The search index's builder (issue 58, decision 044): every write of meta/catalog (a book created,
// edited or deleted, an import's end, a search instance with no snapshot) builds the index off the
// request path and publishes its snapshot. One at a time (a lease too, for the emulator and for
// redeliveries); at 100,000 books a build takes minutes and about 1 GB (BENCHMARKS.md section 7).
export const buildSearchIndex = onDocumentWritten(
  { document: 'meta/catalog', memory: '2GiB', timeoutSeconds: 540, maxInstances: 1, concurrency: 1 },
  served('buildSearchIndex', () => import('./serve/build-search-index')),
);

// The home page, /books, book pages (/books/:id) and the sitemaps; Hosting rewrites them here.
export const pages = onRequest({ memory: '256MiB', concurrency: 80 }, served('pages', () => import('./serve/pages')));

// Pickup orders not collected within the shop's hold days are cancelled and restocked (issue 27).
// Cloud Scheduler calls it over HTTP (an onSchedule function is an HTTP function on Cloud Run); each
// release is its order's own transaction, so an overlapping or repeated run releases nothing twice.
// Unpaid card orders whose session ended are cancelled too, after asking Stripe (it needs the Stripe secrets).
export const releaseHolds = onSchedule(
  { secrets: [stripeSecretKey, stripeWebhookSecret], schedule: 'every 60 minutes', memory: '256MiB', timeoutSeconds: 300, maxInstances: 1 },
  served('releaseHolds', () => import('./serve/release-holds')),
);

// The shop's mail (issue 36, decision 037): each document queued in `mail` (lib/mail-queue.ts) is
// tried once by this function at once, then, after a temporary refusal, again later by the sweeper
// below (mail/send-mail.ts). Only these two are given SMTP_URI. Capped for a small provider: at most
// 2 instances of one call each, and one sweeper, each on a pool of at most 2 SMTP connections
// (issue 58). An event refused at the cap is not lost: its mail stays PENDING and is swept.
export const sendMail = onDocumentCreated(
  { document: 'mail/{id}', secrets: [smtpUriSecret], memory: '256MiB', timeoutSeconds: SEND_MAIL_TIMEOUT_S, maxInstances: 2, concurrency: 1 },
  served('sendMail', () => import('./serve/send-mail')),
);

// Every minute: mail due for another try (RETRY), PENDING mail no trigger took within minutes,
// PROCESSING mail whose sender died (its lease ran out). Cloud Scheduler calls it; `npm start` calls
// it on the same schedule (scripts/lib/local-schedules.ts: the emulators run no schedule).
export const sweepMail = onSchedule(
  { secrets: [smtpUriSecret], schedule: 'every 1 minutes', memory: '256MiB', timeoutSeconds: SEND_MAIL_TIMEOUT_S, maxInstances: 1, concurrency: 1 },
  served('sweepMail', () => import('./serve/sweep-mail')),
);

// Once a day: the audit chain's head to the log, Storage and the owners' mailbox, outside the audit
// collection (issue 55; admin/audit-anchor.ts). No secret: it reads one document, writes one object
// and queues one mail (sent by sendMail).
export const anchorAudit = onSchedule(
  { schedule: 'every 24 hours', memory: '256MiB', timeoutSeconds: 60, maxInstances: 1 },
  served('anchorAudit', () => import('./serve/anchor-audit')),
);

// Each function is its own Cloud Run service: only those that declare the admin secret (api,
// search) are given it, and only those refuse to start with a weak one; likewise the Stripe secrets.
const declared = runningFunctionSecrets({ api, search, buildSearchIndex, pages, releaseHolds, sendMail, sweepMail, anchorAudit });
assertStrongAdminSecret(process.env, declared);
assertStripeConfig(process.env, declared);
