import { readFileSync } from 'node:fs';
import { freePort } from '../scripts/lib/ports';
import { EMULATOR_ENV, HOST, ROOT } from '../scripts/lib/env';
import { jwtSecret } from '../scripts/lib/suite';
import { startServing } from '../scripts/lib/watched-process';

// The built function (functions/lib/index.js, export `api`) served the way Cloud Functions v2 serves
// it in production: @google-cloud/functions-framework, one Node process taking many requests at once.
// It talks to the suite's emulators (official Firestore, Auth, Storage) through the usual variables.
// Neither FUNCTIONS_EMULATOR nor K_SERVICE is set: the function behaves as deployed (no read-count
// header) and its production guard (config.ts, assertSafeEnvironment) lets the emulator hosts pass.

const FRAMEWORK = `${ROOT}node_modules/@google-cloud/functions-framework`;

export interface FunctionServer {
  url: string;
  version: string;
  stop(): Promise<void>;
}

export async function startFunctionServer(logFile: string): Promise<FunctionServer> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const { FUNCTIONS_EMULATOR: _emulator, K_SERVICE: _service, FIREBASE_CONFIG: _config, ...env } = process.env;
  const server = await startServing(
    'functions-framework serving functions/lib/index.js',
    process.execPath,
    [`${FRAMEWORK}/build/src/main.js`, '--target=api', '--signature-type=http', `--source=${ROOT}functions`, `--port=${port}`],
    { env: { ...env, ...EMULATOR_ENV, ADMIN_JWT_SECRET: jwtSecret(), NODE_ENV: 'production' }, logFile },
    async () => (await fetch(`${url}/api/health`)).ok,
    60_000,
  );
  const { version } = JSON.parse(readFileSync(`${FRAMEWORK}/package.json`, 'utf8')) as { version: string };
  return { url, version, stop: () => server.stop() };
}
