import { setGlobalOptions } from 'firebase-functions/v2';
import { onRequest } from 'firebase-functions/v2/https';
import { onSchedule } from 'firebase-functions/v2/scheduler';
import { createApiHandler } from './app';
import { adminJwtSecret, assertSafeEnvironment, assertStrongAdminSecret, runningFunctionSecrets, stripeSecretKey, stripeWebhookSecret } from './config';
import { deferBodyParseErrors, withBodyLimitCheck } from './lib/body-parse-errors';
import { releaseHoldsJob } from './orders/release-holds';
import { createPagesApp } from './pages/pages.app';
import { assertStripeConfig } from './payments/stripe-client';
import { withRelease } from './pages/release';

assertSafeEnvironment();
deferBodyParseErrors();
// No minInstances: every function scales to zero; one warm instance would cost about $12 a month
// per function, more than the rest of a small shop's bill (decision 034, which says when to change it).
setGlobalOptions({ region: 'us-central1', maxInstances: 10 });

// Card payments (issue 35): on when both Stripe secrets hold Stripe values, off (cash only) when both are `off`.
export const api = onRequest({ secrets: [adminJwtSecret, stripeSecretKey, stripeWebhookSecret], memory: '256MiB', concurrency: 40 }, createApiHandler());

// Book pages (/books/:id) and sitemaps for robots and link previews; Hosting rewrites them here.
export const pages = onRequest({ memory: '256MiB', concurrency: 80 }, withRelease(withBodyLimitCheck(createPagesApp())));

// Pickup orders not collected within the shop's hold days are cancelled and restocked (issue 27).
// Cloud Scheduler calls it over HTTP (an onSchedule function is an HTTP function on Cloud Run); each
// release is its order's own transaction, so an overlapping or repeated run releases nothing twice.
// Unpaid card orders whose session ended are cancelled too, after asking Stripe (it needs the Stripe secrets).
export const releaseHolds = onSchedule({ secrets: [stripeSecretKey, stripeWebhookSecret], schedule: 'every 60 minutes', memory: '256MiB', timeoutSeconds: 300, maxInstances: 1 }, async () => {
  await releaseHoldsJob();
});

// Each function is its own Cloud Run service loading this whole bundle: only the one that declares
// the admin secret (api) is given it, and only that one refuses to start with a weak one.
const declared = runningFunctionSecrets({ api, pages, releaseHolds });
assertStrongAdminSecret(process.env, declared);
assertStripeConfig(process.env, declared);
