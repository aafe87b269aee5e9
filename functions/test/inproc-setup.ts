import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { http as registerHttp } from '@google-cloud/functions-framework';
import { getTestServer } from '@google-cloud/functions-framework/testing';
import { afterAll, beforeAll } from 'vitest';
import { inprocBucket, inprocDatabase, inprocWorker } from '../../scripts/lib/inproc-lane';
import { seedIfEmpty } from '../../scripts/lib/seed';
import { setBase } from './helpers';

// The `inproc` vitest project: the `api` function's handler (functions/src/app.ts) served in this
// process by functions-framework, the production runtime, on an ephemeral port, over the same
// emulators as the `api` project (Firestore, Auth and Storage through the standard host variables,
// which scripts/test.ts sets), on this worker's own database and bucket (scripts/lib/inproc-lane.ts).
// No Hosting and no Functions emulator in between, so no worker process per concurrent request: the
// tests are the handlers' logic at the speed of Firestore.
// Like index.ts, the runtime's body-parser is wrapped before the runtime builds its parsers.

process.env.ADMIN_JWT_SECRET ??= randomBytes(32).toString('hex');
// Read when first used (functions/src/lib/firebase.ts, helpers.ts), so set before any test runs: on
// the shop's database its whole-database checks would race the other lanes, and two files beside
// each other on one database would race each other.
const worker = inprocWorker();
process.env.FIRESTORE_DATABASE_ID = inprocDatabase(worker);
process.env.STORAGE_BUCKET = inprocBucket(worker);

let server: Server;

beforeAll(async () => {
  // This worker's database, seeded as the suite seeds the shop's: its first file seeds it.
  await seedIfEmpty();
  // Imported here, after the secret is set; the body-parser patch needs the runtime's main module.
  const { deferBodyParseErrors } = await import('../src/lib/body-parse-errors');
  deferBodyParseErrors(createRequire(import.meta.url).resolve('@google-cloud/functions-framework'));
  const { createApiHandler } = await import('../src/app');
  registerHttp('api', createApiHandler());
  server = getTestServer('api');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setBase(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
