import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PROD_OUT_DIR } from './deploy';
import { HOST, PORTS, PROJECT_ID, ROOT } from './env';
import { deployedHosting } from './hosting-server';
import { runSmoke, type SmokeResult } from './smoke';

// `npm test` runs the smoke check against the deploy's own production build (web/dist-prod, which
// the rehearsal bundles too) served as the deploy configures Hosting for it: the Hosting emulator's
// server with the config `npm run deploy` writes (its immutable /assets/ rule narrowed to that
// build's files, scripts/lib/asset-headers.ts), function rewrites proxied to the suite's Functions
// emulator. The suite's own Hosting emulator serves web/dist with a config read at its start: its
// asset rule names the emulator build's files, not this build's.

export async function smokeProductionBuild(): Promise<SmokeResult[]> {
  const prod = join(ROOT, 'web', PROD_OUT_DIR);
  // release.json: every build writes it (the home page itself is the pages function's, issue 38).
  if (!existsSync(join(prod, 'release.json'))) return [{ name: 'production build for the smoke check', status: 'fail', detail: `no production build in web/${PROD_OUT_DIR}` }];
  const site = await deployedHosting(prod, (functionId, region) => `http://${HOST}:${PORTS.functions}/${PROJECT_ID}/${region}/${functionId}`);
  try {
    console.log(`Smoke: web/${PROD_OUT_DIR} (the deploy's production build) on Hosting as the deploy configures it, at ${site.url}, functions from the emulators...`);
    return await runSmoke(site.url);
  } finally {
    site.server.close();
    site.server.closeAllConnections();
  }
}
