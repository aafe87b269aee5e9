import { defineSecret } from 'firebase-functions/params';

/** HS256 key for admin tokens: `firebase functions:secrets:set ADMIN_JWT_SECRET` in production. */
export const adminJwtSecret = defineSecret('ADMIN_JWT_SECRET');

export const ADMIN_TOKEN_TTL_SECONDS = 3600;
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_JSON_BYTES = 100 * 1024;
export const MAX_COVER_BYTES = 2 * 1024 * 1024;
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
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
}
export const BODY_LIMITS: readonly (BodyLimit & { method: string; path: string; types: readonly string[] })[] = [
  { method: 'POST', path: '/api/books/cover', types: ['multipart/form-data'], bytes: MAX_COVER_BYTES + MULTIPART_OVERHEAD_BYTES, message: 'Cover image must be at most 2 MB' },
  { method: 'POST', path: '/api/books/import', types: ['text/csv', 'application/x-ndjson'], bytes: MAX_IMPORT_BYTES, message: 'Import file must be at most 5 MB' },
];
const DEFAULT_BODY_LIMIT: BodyLimit = { bytes: MAX_JSON_BYTES, message: 'Request body is too large' };

/** The body limit for a request: `url` may carry a query string; matching ignores case and a trailing slash, as Express does. */
export function bodyLimitFor(method: string | undefined, url: string | undefined, contentType: string | undefined): BodyLimit {
  const path = (url ?? '').split('?')[0]!.toLowerCase().replace(/\/+$/, '');
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const route = BODY_LIMITS.find((r) => r.method === (method ?? '').toUpperCase() && r.path === path && r.types.includes(type));
  return route ?? DEFAULT_BODY_LIMIT;
}

const EMULATOR_VARS = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIREBASE_STORAGE_EMULATOR_HOST', 'STORAGE_EMULATOR_HOST'];

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
