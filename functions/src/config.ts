import { defineSecret } from 'firebase-functions/params';
import { MIN_SECRET_BYTES as MIN_ADMIN_SECRET_BYTES } from './lib/jwt';

/** HS256 key for admin tokens: `firebase functions:secrets:set ADMIN_JWT_SECRET` in production. */
export const adminJwtSecret = defineSecret('ADMIN_JWT_SECRET');

export const ADMIN_TOKEN_TTL_SECONDS = 3600;
/** Wrong passwords a username may try from one address before waiting; then 1, 2, 4... minutes. */
export const LOGIN_FREE_FAILURES = 5;
export const LOGIN_FIRST_DELAY_MS = 60 * 1000;
/** The ceiling of that delay: one guess per 15 minutes per username and address, at most. */
export const LOGIN_MAX_DELAY_MS = 15 * 60 * 1000;
/** A counter forgets after a quiet day; its `expireAt` lets Firestore's TTL policy delete it. */
export const LOGIN_FORGET_MS = 24 * 60 * 60 * 1000;
/** Password hashes (32 MiB each) one instance runs at once, and how many may wait for one. */
export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE = 8;
/**
 * Proxies that append to X-Forwarded-For after the client's own address, in production: the
 * request goes browser -> Firebase Hosting's edge -> Cloud Run's Google Front End -> function, so
 * the list reads `<whatever the client sent>, <client>, <Hosting edge>` and the client is one hop
 * from the right. The emulators append nothing (the Hosting emulator forwards the header as is).
 */
export const PRODUCTION_PROXY_HOPS = 1;
export const MAX_JSON_BYTES = 100 * 1024;
export const MAX_COVER_BYTES = 2 * 1024 * 1024;

const EMULATOR_VARS = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_STORAGE_EMULATOR_HOST', 'STORAGE_EMULATOR_HOST'];

/**
 * HS256 with a short key can be brute-forced offline from one token. On Cloud Run (`K_SERVICE`
 * set, the emulator sets it too) the secret is in the environment from the first line, so a weak
 * or missing one stops the instance at start: a deploy with it never takes traffic. Skipped while
 * firebase-tools loads the code to read its triggers (`FUNCTIONS_CONTROL_API`), when no secret exists yet.
 */
export function assertStrongAdminSecret(env: NodeJS.ProcessEnv = process.env): void {
  if (env.FUNCTIONS_CONTROL_API === 'true' || !env.K_SERVICE) return;
  const bytes = Buffer.byteLength(env.ADMIN_JWT_SECRET ?? '', 'utf8');
  if (bytes < MIN_ADMIN_SECRET_BYTES) {
    throw new Error(`ADMIN_JWT_SECRET must be at least ${MIN_ADMIN_SECRET_BYTES} bytes (it has ${bytes}); set it with: firebase functions:secrets:set ADMIN_JWT_SECRET`);
  }
}

/**
 * With an emulator host variable set, firebase-admin accepts unsigned ID tokens. In production
 * (K_SERVICE is set by Cloud Run) that would let anyone in, so the function refuses to start.
 */
export function assertSafeEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  if (env.FUNCTIONS_EMULATOR === 'true' || !env.K_SERVICE) return;
  const leaked = EMULATOR_VARS.filter((name) => env[name]);
  if (leaked.length > 0) {
    throw new Error(`Refusing to start in production with emulator variables set: ${leaked.join(', ')}`);
  }
}
