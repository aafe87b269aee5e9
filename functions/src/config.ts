import { defineSecret } from 'firebase-functions/params';

/** HS256 key for admin tokens: `firebase functions:secrets:set ADMIN_JWT_SECRET` in production. */
export const adminJwtSecret = defineSecret('ADMIN_JWT_SECRET');

export const ADMIN_TOKEN_TTL_SECONDS = 3600;
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_JSON_BYTES = 100 * 1024;
export const MAX_COVER_BYTES = 2 * 1024 * 1024;

const EMULATOR_VARS = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_STORAGE_EMULATOR_HOST', 'STORAGE_EMULATOR_HOST'];

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
