import { setGlobalOptions } from 'firebase-functions/v2';
import { onDocumentCreated } from 'firebase-functions/v2/firestore';
import { onRequest } from 'firebase-functions/v2/https';
import { onSchedule } from 'firebase-functions/v2/scheduler';
import { createApiHandler } from './app';
import { adminJwtSecret, assertSafeEnvironment, assertStrongAdminSecret, mailFrom, runningFunctionSecrets, smtpUriSecret, stripeSecretKey, stripeWebhookSecret } from './config';
import { deferBodyParseErrors, withBodyLimitCheck } from './lib/body-parse-errors';
import { MAIL_COLLECTION } from './lib/mail-queue';
import { SEND_MAIL_TIMEOUT_S, sendQueuedMail } from './mail/send-mail';
import { releaseHoldsJob } from './orders/release-holds';
import { createPagesApp } from './pages/pages.app';
import { assertStripeConfig } from './payments/stripe-client';
import { withRelease } from './pages/release';

assertSafeEnvironment();
deferBodyParseErrors();
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

// The shop's mail (issue 36, decision 036): each document queued in `mail` is sent over SMTP by
// this function alone, the only one given SMTP_URI. Tries and their backoff run inside the call
// (send-mail.ts); the claim makes a redelivered event send nothing twice.
export const sendMail = onDocumentCreated(
  { document: `${MAIL_COLLECTION}/{id}`, secrets: [smtpUriSecret], memory: '256MiB', timeoutSeconds: SEND_MAIL_TIMEOUT_S, maxInstances: 10 },
  async (event) => {
    await sendQueuedMail(event.params.id, { smtpUri: smtpUriSecret.value(), from: mailFrom.value() });
  },
);

// Each function is its own Cloud Run service loading this whole bundle: only the one that declares
// the admin secret (api) is given it, and only that one refuses to start with a weak one.
const declared = runningFunctionSecrets({ api, pages, releaseHolds, sendMail });
assertStrongAdminSecret(process.env, declared);
assertStripeConfig(process.env, declared);
