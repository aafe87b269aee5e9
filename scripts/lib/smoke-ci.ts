import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './env';
import { AUTH_EMULATOR_ORIGIN, FIRESTORE_EMULATOR_ORIGIN } from './emulator-config';
import { runSmoke, type SmokeResult } from './smoke';

// `npm test` runs the smoke check against the Hosting emulator serving a PRODUCTION build: the
// suite's Hosting emulator serves web/dist from disk, so the emulator build there is set aside, a
// production build (placeholder web config: it only has to build, nobody signs in) takes its place
// for the smoke, and the emulator build comes back afterwards. A second Hosting emulator would need
// its own ports and a second copy of the function: heavier than a 30-second build.

const PLACEHOLDER_CONFIG = {
  VITE_FIREBASE_API_KEY: 'AIzaSmokeCheckPlaceholderKey',
  VITE_FIREBASE_AUTH_DOMAIN: 'bookstore-smoke.firebaseapp.com',
  VITE_FIREBASE_PROJECT_ID: 'bookstore-smoke',
  VITE_FIREBASE_STORAGE_BUCKET: 'bookstore-smoke.firebasestorage.app',
  VITE_FIREBASE_APP_ID: '1:0:web:smoke',
  VITE_AUTH_EMULATOR_URL: '', // wins over any local .env file: a production build never has one
};

export async function smokeProductionBuild(base: string): Promise<SmokeResult[]> {
  const dist = join(ROOT, 'web', 'dist');
  const aside = join(ROOT, 'artifacts', 'dist-emulator-build');
  rmSync(aside, { recursive: true, force: true });
  if (existsSync(dist)) cpSync(dist, aside, { recursive: true });
  try {
    console.log('Smoke: building the web app in production mode into web/dist (the emulator build is set aside)...');
    // Variables already in the environment take precedence over Vite's .env files.
    const built = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', 'web', '--mode', 'production', '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...PLACEHOLDER_CONFIG },
    });
    if (built.status !== 0) return [{ name: 'production build for the smoke check', status: 'fail', detail: 'vite build failed' }];
    // The emulator's generated config adds exactly the Auth and Firestore emulators to the CSP; firebase.json's own
    // policy is checked to name no emulator by functions/test/headers.api.test.ts.
    return await runSmoke(base, [AUTH_EMULATOR_ORIGIN, FIRESTORE_EMULATOR_ORIGIN]);
  } finally {
    if (existsSync(aside)) {
      rmSync(dist, { recursive: true, force: true });
      cpSync(aside, dist, { recursive: true });
      rmSync(aside, { recursive: true, force: true });
    }
  }
}
