import { COVER_TOO_LARGE_MESSAGE, MAX_COVER_BYTES, MAX_IMPORT_BYTES } from '@bookstore/contract';
import { defineSecret, defineString } from 'firebase-functions/params';
import { MIN_SECRET_BYTES as MIN_ADMIN_SECRET_BYTES } from './lib/jwt';

/** HS256 key for admin tokens: `firebase functions:secrets:set ADMIN_JWT_SECRET` in production. */
export const adminJwtSecret = defineSecret('ADMIN_JWT_SECRET');

/**
 * The shop's SMTP server, smtp(s)://user:password@host:port, given to the `sendMail` function
 * alone (`firebase functions:secrets:set SMTP_URI`; locally the launcher's inbox, functions/.secret.local).
 */
export const smtpUriSecret = defineSecret('SMTP_URI');
/** sendMail's time limit; a claimed mail is another call's for as long (mail/send-mail.ts). */
export const SEND_MAIL_TIMEOUT_S = 300;

/** The sender of the shop's mail; a deploy sets it in functions/.env.<project-id> (docs/deploying.md). */
export const LOCAL_MAIL_FROM = 'Bookstore <orders@bookstore.localhost>';
export const mailFrom = defineString('MAIL_FROM', { default: LOCAL_MAIL_FROM, description: 'The sender of the shop\'s mail, e.g. Bookstore <orders@your-domain.com>' });
/**
 * Where the audit chain's daily anchor is mailed (issue 55; admin/audit-anchor.ts): a mailbox the
 * owners keep outside the Firebase project. Empty: the address MAIL_FROM sends from.
 */
export const auditAnchorTo = defineString('AUDIT_ANCHOR_TO', { default: '', description: 'Where the audit chain\'s daily anchor is mailed (the owners\' mailbox); empty: the MAIL_FROM address' });

/**
 * Card payments (issue 35): Stripe's secret API key and the webhook endpoint's signing secret, in
 * Secret Manager like ADMIN_JWT_SECRET (`firebase functions:secrets:set STRIPE_SECRET_KEY`). Both
 * set: checkout offers 'Pay by Card'; both `off` (a deploy needs every declared secret to exist):
 * cash only. payments/stripe-client.ts reads them; the deploy checks them (scripts/lib/deploy-checks.ts).
 */
export const stripeSecretKey = defineSecret('STRIPE_SECRET_KEY');
export const stripeWebhookSecret = defineSecret('STRIPE_WEBHOOK_SECRET');

export const ADMIN_TOKEN_TTL_SECONDS = 3600;
/** Wrong passwords a username may try from one address before waiting; then 1, 2, 4... minutes. */
export const LOGIN_FREE_FAILURES = 5;
export const LOGIN_FIRST_DELAY_MS = 60 * 1000;
/** The ceiling of that delay: one guess per 15 minutes per username and address, at most. */
export const LOGIN_MAX_DELAY_MS = 15 * 60 * 1000;
/** A counter forgets after a quiet day; its `expireAt` lets Firestore's TTL policy delete it. */
export const LOGIN_FORGET_MS = 24 * 60 * 60 * 1000;
/**
 * Failed sign-ins a username takes from browsers without its device cookie, from every address
 * together, per window; beyond it such attempts get 429 (OWASP's lockout of untrusted clients).
 * A browser with the username's device cookie has a budget of its own of the same size.
 */
export const LOGIN_CEILING_FAILURES = 10;
export const LOGIN_CEILING_WINDOW_MS = 15 * 60 * 1000;
/** Password hashes (32 MiB each) one instance runs at once, and how many may wait for one. */
export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE = 8;
/**
 * Entries after the client's address in X-Forwarded-For, in production (issue 55): 0, the LAST
 * entry, which Google's front end appends on Cloud Run behind Hosting; every entry before it the
 * caller can write. Reports of what Hosting's edge adds differ (some show the client one from the
 * right, `<client>, <edge>`): log the header of a request you send with a made-up X-Forwarded-For
 * on your deployment once, and set this to the number of entries after the client's own address.
 * Never more than the front end adds: a hop too many reads an entry the caller wrote.
 */
export const PRODUCTION_PROXY_HOPS: number = 0;
export const MAX_JSON_BYTES = 100 * 1024;
/** Multipart boundaries and part headers around the cover's bytes. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/**
 * The largest body each route accepts, enforced before anything is parsed (lib/body-parse-errors.ts):
 * by Content-Length, and by counting bytes while the body streams in. A route gets its larger limit
 * only with its content type; every other request gets MAX_JSON_BYTES.
 */
export interface BodyLimit {
  bytes: number;
  /** The 413 answer's message. */
  message: string;
  /** Staff-only uploads: the bearer token is checked before a byte of the body is read. */
  staffOnly?: true;
}
export const BODY_LIMITS: readonly (BodyLimit & { method: string; path: string; types: readonly string[] })[] = [
  { method: 'POST', path: '/api/books/cover', types: ['multipart/form-data'], bytes: MAX_COVER_BYTES + MULTIPART_OVERHEAD_BYTES, message: COVER_TOO_LARGE_MESSAGE, staffOnly: true },
  { method: 'POST', path: '/api/books/import', types: ['text/csv', 'application/x-ndjson'], bytes: MAX_IMPORT_BYTES, message: 'Import file must be at most 5 MB', staffOnly: true },
];
const DEFAULT_BODY_LIMIT: BodyLimit = { bytes: MAX_JSON_BYTES, message: 'Request body is too large' };

/** The body limit for a request: `url` may carry a query string; matching ignores case and a trailing slash, as Express does. */
export function bodyLimitFor(method: string | undefined, url: string | undefined, contentType: string | undefined): BodyLimit {
  const path = (url ?? '').split('?')[0]!.toLowerCase().replace(/\/+$/, '');
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const route = BODY_LIMITS.find((r) => r.method === (method ?? '').toUpperCase() && r.path === path && r.types.includes(type));
  return route ?? DEFAULT_BODY_LIMIT;
}

// STRIPE_API_BASE points the Stripe SDK at the local stand-in (scripts/lib/stripe-stand-in): like the
// emulators' variables, it may only ever name this machine.
const EMULATOR_VARS = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_STORAGE_EMULATOR_HOST', 'STORAGE_EMULATOR_HOST', 'STRIPE_API_BASE'];

/** True for 127.0.0.0/8, ::1 and localhost, in any of the forms the emulator variables take (`host:port`, `http://host:port`, `[::1]:port`). */
export function isLoopbackHost(value: string): boolean {
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`).hostname;
  } catch {
    return false;
  }
  host = host.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(host);
}

/** What firebase-functions attaches to each exported function: its declaration, as deployed. */
export interface DeclaredFunction {
  __endpoint?: { secretEnvironmentVariables?: { key: string }[] };
}

/**
 * The secrets the running function declares (`secrets: [...]` in its options), read from the same
 * declaration firebase-tools deploys, so it cannot drift from what Cloud Run gives it. On Cloud Run
 * (and in the Functions emulator) each exported function is its own service loading the whole
 * bundle: FUNCTION_TARGET names the export, K_SERVICE the service (the export in lower case).
 * `null` when it cannot tell which function runs: the caller then checks every secret.
 */
export function runningFunctionSecrets(functions: Record<string, DeclaredFunction>, env: NodeJS.ProcessEnv = process.env): string[] | null {
  const name =
    (env.FUNCTION_TARGET && env.FUNCTION_TARGET in functions ? env.FUNCTION_TARGET : undefined) ??
    Object.keys(functions).find((n) => n.toLowerCase() === env.K_SERVICE?.toLowerCase());
  if (!name) return null;
  return (functions[name]!.__endpoint?.secretEnvironmentVariables ?? []).map((s) => s.key);
}

/**
 * HS256 with a short key can be brute-forced offline from one token. On Cloud Run (`K_SERVICE`
 * set, the emulator sets it too) the secret is in the environment from the first line, so a weak
 * or missing one stops the instance at start: a deploy with it never takes traffic. Only a function
 * that declares the secret is checked (`declared`, from runningFunctionSecrets; `null` = unknown
 * function, checked): the others are never given it, and `pages` must start without it.
 * Skipped while firebase-tools loads the code to read its triggers (`FUNCTIONS_CONTROL_API`), when no secret exists yet.
 */
export function assertStrongAdminSecret(env: NodeJS.ProcessEnv = process.env, declared: string[] | null = null): void {
  if (env.FUNCTIONS_CONTROL_API === 'true' || !env.K_SERVICE) return;
  if (declared && !declared.includes(adminJwtSecret.name)) return;
  const bytes = Buffer.byteLength(env.ADMIN_JWT_SECRET ?? '', 'utf8');
  if (bytes < MIN_ADMIN_SECRET_BYTES) {
    throw new Error(`ADMIN_JWT_SECRET must be at least ${MIN_ADMIN_SECRET_BYTES} bytes (it has ${bytes}); set it with: firebase functions:secrets:set ADMIN_JWT_SECRET`);
  }
}

/**
 * With an emulator host variable set, firebase-admin accepts unsigned ID tokens. On Cloud Run
 * (K_SERVICE is set there, and by the Functions emulator) the function refuses to start unless
 * every such variable points at this machine's loopback, which only the local emulators do.
 * FUNCTIONS_EMULATOR=true is not trusted: a stray one in a deployed environment must not skip this.
 */
export function assertSafeEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  if (!env.K_SERVICE) return;
  const leaked = EMULATOR_VARS.filter((name) => env[name] && !isLoopbackHost(env[name]!));
  if (leaked.length > 0) {
    throw new Error(`Refusing to start on Cloud Run with emulator variables pointing off this machine: ${leaked.join(', ')}`);
  }
}
