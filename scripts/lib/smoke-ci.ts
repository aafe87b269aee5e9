import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROD_OUT_DIR } from './deploy';
import { ROOT } from './env';
import { AUTH_EMULATOR_ORIGIN, FIRESTORE_EMULATOR_ORIGIN } from './emulator-config';
import { runSmoke, type SmokeResult } from './smoke';

// `npm test` runs the smoke check against the Hosting emulator serving a PRODUCTION build: the
// suite's Hosting emulator serves web/dist from disk, so the emulator build there is moved aside,
// the deploy's own production build (web/dist-prod, which the rehearsal builds too: one build for
// both, scripts/lib/rehearsal.ts buildDeploySource) takes its place for the smoke, and the emulator
// build comes back afterwards. A second Hosting emulator would need its own ports and a second copy
// of the function.

export async function smokeProductionBuild(base: string): Promise<SmokeResult[]> {
  const dist = join(ROOT, 'web', 'dist');
  const prod = join(ROOT, 'web', PROD_OUT_DIR);
  const aside = join(ROOT, 'artifacts', 'dist-emulator-build');
  if (!existsSync(join(prod, 'index.html'))) return [{ name: 'production build for the smoke check', status: 'fail', detail: `no production build in web/${PROD_OUT_DIR}` }];
  rmSync(aside, { recursive: true, force: true });
  mkdirSync(dirname(aside), { recursive: true });
  if (existsSync(dist)) renameSync(dist, aside);
  try {
    console.log(`Smoke: web/${PROD_OUT_DIR} (the deploy's production build) in web/dist for the check (the emulator build is set aside)...`);
    cpSync(prod, dist, { recursive: true });
    // The emulator's generated config adds exactly the Auth and Firestore emulators to the CSP; firebase.json's own
    // policy is checked to name no emulator by functions/test/headers.api.test.ts.
    return await runSmoke(base, [AUTH_EMULATOR_ORIGIN, FIRESTORE_EMULATOR_ORIGIN]);
  } finally {
    if (existsSync(aside)) {
      rmSync(dist, { recursive: true, force: true });
      renameSync(aside, dist);
    }
  }
}
