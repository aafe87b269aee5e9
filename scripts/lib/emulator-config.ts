import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetNames, narrowAssetRules } from './asset-headers';
import { HOST, PORTS, ROOT } from './env';

// The Hosting emulator serves the headers of the firebase config it is given. firebase.json holds
// production's policy, which must not name the Auth emulator; emulator builds of the web app talk
// to it. So the launcher starts the emulators with a generated copy (git-ignored, rewritten at
// every start, never deployed) whose CSP adds exactly the Auth emulator's origin.
// The copy also leaves out firebase.json's `extensions` (the Trigger Email extension): the suite
// starts with `--only auth,functions,hosting`, which already keeps the Extensions emulator off, but
// any other start would make firebase-tools download the extension's source from the Extensions
// registry (impossible offline) and run a mailer that needs a real SMTP server. Tests read the
// queued mail documents instead (docs/decisions/017-deploy-order.md).
// Its `/assets/**` immutable rule is narrowed to web/dist's files, as the deploy narrows it to the
// production build's (asset-headers.ts), so a missing asset's 404 is tested as production serves it.

export const AUTH_EMULATOR_ORIGIN = `http://${HOST}:${PORTS.auth}`;
/** The live pages (orders, stock) follow Firestore straight from the browser under the rules. */
export const FIRESTORE_EMULATOR_ORIGIN = `http://${HOST}:${PORTS.firestore}`;
export const EMULATOR_CONFIG = join(ROOT, 'firebase.emulator.json');

/** Production's CSP plus the Auth emulator in connect-src (its REST API) and frame-src (its helper iframe), and the Firestore emulator in connect-src. */
export function emulatorCsp(csp: string): string {
  return csp
    .split(';')
    .map((directive) => directive.trim())
    .filter(Boolean)
    .map((directive) => (/^(connect-src|frame-src)\s/.test(directive) ? `${directive} ${AUTH_EMULATOR_ORIGIN}` : directive))
    .map((directive) => (/^connect-src\s/.test(directive) ? `${directive} ${FIRESTORE_EMULATOR_ORIGIN}` : directive))
    .join('; ');
}

interface HeaderRule {
  headers: { key: string; value: string }[];
}

/** Writes firebase.emulator.json (same directory as firebase.json, so every relative path resolves alike) and returns its path. */
export function writeEmulatorConfig(): string {
  writeFileSync(EMULATOR_CONFIG, emulatorConfig(readFileSync(join(ROOT, 'firebase.json'), 'utf8'), assetNames(join(ROOT, 'web', 'dist'))));
  return EMULATOR_CONFIG;
}

/** firebase.json as the emulators get it: the CSP widened for the emulators, no extensions, the asset rule narrowed to `assets`. */
export function emulatorConfig(firebaseJson: string, assets: string[] = []): string {
  const config = JSON.parse(firebaseJson);
  delete config.extensions;
  if (config.hosting) config.hosting = narrowAssetRules(config.hosting, assets);
  // This checkout's port slot (scripts/lib/env.ts): firebase.json holds slot 0's ports.
  for (const [name, port] of Object.entries(PORTS)) if (config.emulators?.[name]) config.emulators[name].port = port;
  for (const rule of (config.hosting?.headers ?? []) as HeaderRule[]) {
    for (const header of rule.headers) {
      if (header.key.toLowerCase() === 'content-security-policy') header.value = emulatorCsp(header.value);
    }
  }
  return `${JSON.stringify(config, null, 2)}\n`;
}
