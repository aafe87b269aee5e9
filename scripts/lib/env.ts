import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PROJECT_ID = 'demo-bookstore';
export const HOST = '127.0.0.1';

export const PORTS = {
  hosting: 5000,
  functions: 5001,
  firestore: 8080,
  auth: 9099,
  storage: 9199,
  hub: 4400,
  logging: 4500,
} as const;

/**
 * The tests' stand-in for Open Library (scripts/lib/open-library-fixture.ts); `npm test` points
 * the function at it with OPEN_LIBRARY_ORIGIN, which only the emulators honour.
 */
export const OPEN_LIBRARY_FIXTURE_PORT = 9471;
export const OPEN_LIBRARY_FIXTURE_ORIGIN = `http://${HOST}:${OPEN_LIBRARY_FIXTURE_PORT}`;

export const SHOP_URL = `http://${HOST}:${PORTS.hosting}`;
export const DEMO_ADMIN = { username: 'admin', password: 'admin123' };
export const DEMO_CUSTOMER = { email: 'reader@example.com', password: 'reader123', displayName: 'Riley Reader' };

/** Points firebase-admin (ours and the function's) at the local emulators. */
export const EMULATOR_ENV = {
  GCLOUD_PROJECT: PROJECT_ID,
  FIRESTORE_EMULATOR_HOST: `${HOST}:${PORTS.firestore}`,
  FIREBASE_AUTH_EMULATOR_HOST: `${HOST}:${PORTS.auth}`,
  FIREBASE_STORAGE_EMULATOR_HOST: `${HOST}:${PORTS.storage}`,
  STORAGE_EMULATOR_HOST: `http://${HOST}:${PORTS.storage}`,
  STORAGE_BUCKET: `${PROJECT_ID}.appspot.com`,
  METADATA_SERVER_DETECTION: 'none',
};

/** A command's options (node:util parseArgs); a mistake names the usage. */
export function cliArgs<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O, usage: string, allowPositionals = false) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new Error(`${(error as Error).message} ${usage}`, { cause: error });
  }
}
