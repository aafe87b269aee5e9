import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { EMULATOR_ENV, HOST, ROOT } from '../scripts/lib/env';
import { waitFor } from '../scripts/lib/ports';
import { startWatched } from '../scripts/lib/watched-process';

// The built function (functions/lib/index.js, export `api`) served the way Cloud Functions v2 serves
// it in production: @google-cloud/functions-framework, one Node process taking many requests at once.
// It talks to the suite's emulators (official Firestore, Auth, Storage) through the usual variables.
// Neither FUNCTIONS_EMULATOR nor K_SERVICE is set: the function behaves as deployed (no read-count
// header) and its production guard (config.ts, assertSafeEnvironment) lets the emulator hosts pass.

const FRAMEWORK = `${ROOT}node_modules/@google-cloud/functions-framework/build/src/main.js`;

export interface FunctionServer {
  url: string;
  version: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The HS256 key the suite generated for admin tokens (functions/.secret.local). */
export function adminJwtSecret(): string {
  const secret = /ADMIN_JWT_SECRET=(\S+)/.exec(readFileSync(`${ROOT}functions/.secret.local`, 'utf8'))?.[1];
  if (!secret) throw new Error('functions/.secret.local has no ADMIN_JWT_SECRET (the suite writes it at start)');
  return secret;
}

export async function startFunctionServer(logFile: string): Promise<FunctionServer> {
  const port = await freePort();
  const { FUNCTIONS_EMULATOR: _emulator, K_SERVICE: _service, FIREBASE_CONFIG: _config, ...env } = process.env;
  const server = startWatched(process.execPath, [FRAMEWORK, '--target=api', '--signature-type=http', `--source=${ROOT}functions`, `--port=${port}`], {
    env: { ...env, ...EMULATOR_ENV, ADMIN_JWT_SECRET: adminJwtSecret(), NODE_ENV: 'production' },
    logFile,
  });
  const url = `http://${HOST}:${port}`;
  try {
    await waitFor(async () => {
      if (server.exited()) throw new Error('exited');
      return (await fetch(`${url}/api/health`)).ok;
    }, 'functions-framework serving functions/lib/index.js', 60_000);
  } catch (error) {
    await server.stop();
    throw new Error(`functions-framework did not start: ${server.exited() ? server.tail() : error}`, { cause: error });
  }
  const version = JSON.parse(readFileSync(`${ROOT}node_modules/@google-cloud/functions-framework/package.json`, 'utf8')).version as string;
  return { url, version, stop: () => server.stop() };
}
