import { availableParallelism } from 'node:os';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getStorage } from 'firebase-admin/storage';
import { build } from './lib/build';
import { EMULATOR_ENV, HOST, OPEN_LIBRARY_FIXTURE_ORIGIN, OPEN_LIBRARY_FIXTURE_PORT, PORTS, PROJECT_ID, SHOP_URL } from './lib/env';
import { findCloudSdkJar } from './lib/firestore-cloud-sdk';
import { INPROC_DATABASE, inprocBucket, inprocDatabase } from './lib/inproc-lane';
import { startOpenLibraryFixture, type OpenLibraryFixture } from './lib/open-library-fixture';
import { isTestAccount, quickPlan, type QuickLane } from './lib/quick';
import { startStripeStandIn, type StripeStandIn } from './lib/stripe-stand-in/server';
import { chooseFirestore, localSecrets, startSuite, type Suite } from './lib/suite';
import { API_WORKERS, TestRun, terminal } from './lib/test-run';

// `npm run test:quick`: every test that needs no browser and no database of its own, the loop
// before a commit: the unit and component tests, the in-process handler tests, and the API files
// that share the shop (not the *.serial ones). Beside a running `npm start` on this port slot it
// uses the shop's emulators, without its data; otherwise it boots a throwaway suite, as `npm test`
// does. What runs where, and why: docs/test-quick.md.

const t = new TestRun('npm run test:quick');

/** A shop (`npm start`, or another run's suite) answers on this port slot. */
async function shopAnswers(): Promise<boolean> {
  try {
    return (await fetch(`${SHOP_URL}/api/health`, { signal: AbortSignal.timeout(3000) })).ok;
  } catch {
    return false;
  }
}

const admin = () => getApps()[0] ?? initializeApp({ projectId: PROJECT_ID });

/** Workers of the in-process lane beside a shop: two files at once (see `workers`, below). */
const INPROC_WORKERS_BESIDE_SHOP = 2;

/**
 * Empties the in-process lane's databases and buckets (one per worker: scripts/lib/inproc-lane.ts) in
 * the shop's emulators. None is the shop's, but its emulators keep them while they run, and its
 * Storage saves every bucket.
 */
async function emptyInprocData(): Promise<void> {
  for (let worker = 1; worker <= INPROC_WORKERS_BESIDE_SHOP; worker += 1) {
    const database = inprocDatabase(worker);
    const res = await fetch(`http://${HOST}:${PORTS.firestore}/emulator/v1/projects/${PROJECT_ID}/databases/${database}/documents`, { method: 'DELETE' });
    if (!res.ok) throw new Error(`Could not empty the Firestore database ${database}: ${res.status} ${await res.text()}`);
    await getStorage(admin()).bucket(inprocBucket(worker)).deleteFiles({ force: true }).catch((error: { code?: number }) => {
      if (error.code !== 404) throw error; // no bucket yet: nothing to empty
    });
  }
}

/** Deletes the Auth accounts the tests made in the shop's Auth emulator since `since` (isTestAccount). */
async function deleteTestAccounts(since: number): Promise<number> {
  const auth = getAuth(admin());
  const uids: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await auth.listUsers(1000, pageToken);
    uids.push(...page.users.filter((u) => isTestAccount({ email: u.email, creationTime: u.metadata.creationTime }, since)).map((u) => u.uid));
    pageToken = page.pageToken;
  } while (pageToken);
  for (let i = 0; i < uids.length; i += 1000) await auth.deleteUsers(uids.slice(i, i + 1000));
  return uids.length;
}

/**
 * Workers per lane. Vitest's default, a core less than the machine has, is one worker on two cores.
 * Beside a shop the unit lane takes every core (its files are CPU-bound), and the in-process lane
 * runs two files at once, each on its worker's database (its files mostly wait on Firestore); on a
 * suite of its own each keeps the default, as in `npm test`: the build, the emulators and the API
 * files share the cores with them.
 */
const cpuDefault = Math.max(availableParallelism() - 1, 1);
const workers = (lane: QuickLane, boot: boolean) => ({ unit: boot ? cpuDefault : availableParallelism(), inproc: boot ? cpuDefault : INPROC_WORKERS_BESIDE_SHOP, api: API_WORKERS })[lane];

async function main() {
  const plan = quickPlan(process.argv.slice(2), await shopAnswers());
  for (const line of plan.skipped) console.log(`Not run: ${line}`);
  const wants = (name: QuickLane) => plan.lanes.includes(name);
  const run = (name: QuickLane, out = terminal) => t.vitest(name, { files: plan.filters, extra: [`--maxWorkers=${workers(name, plan.boot)}`], out });
  if (!plan.boot && !plan.besideShop) {
    if (wants('unit')) await t.timed('unit', () => run('unit'));
    return;
  }
  // As `npm test` gives its lanes: cheap password hashes for the seeded owner and every test account,
  // ISBN look-ups from the tests' fixtures, and the Stripe test keys the stand-in knows.
  process.env.BOOKSTORE_TEST_CHEAP_HASH = '1';
  process.env.OPEN_LIBRARY_ORIGIN = OPEN_LIBRARY_FIXTURE_ORIGIN;
  const { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } = localSecrets();
  Object.assign(process.env, EMULATOR_ENV, { STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET });
  let openLibrary: OpenLibraryFixture | undefined;
  let suite: Suite | undefined;
  let stripe: StripeStandIn | undefined;
  /** Beside a shop: what the run leaves in its emulators, removed (also on Ctrl-C). */
  let tidy: (() => Promise<void>) | undefined;
  const stop = async () => {
    const tidying = tidy;
    tidy = undefined;
    try {
      await tidying?.();
    } finally {
      await Promise.all([openLibrary?.close(), stripe?.close(), suite?.stop()]);
      openLibrary = stripe = suite = undefined;
    }
  };
  process.on('SIGINT', () => void stop().then(() => process.exit(130)));
  process.on('SIGTERM', () => void stop().then(() => process.exit(143)));
  try {
    // Also a guard: `npm test` on this port slot holds the same port, and its lanes the same database.
    openLibrary = await startOpenLibraryFixture().catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'EADDRINUSE' ? new Error(`Port ${OPEN_LIBRARY_FIXTURE_PORT} is in use: is \`npm test\` or another test:quick running on this port slot?`) : error;
    });
    if (plan.boot) {
      console.log('No shop answers on this port slot: starting a throwaway emulator suite while the app builds...');
      // The unit tests read the build (the bundle budgets): they start once it is done, as in `npm test`.
      const built = t.timed('emulator build', build);
      const unit = wants('unit') ? built.then(() => t.beside('unit', (out) => run('unit', out))) : undefined;
      try {
        suite = await t.timed('emulator suite start', () => startSuite({ stateDir: null, before: built, log: (line) => console.log(`  ${line}`) }));
      } catch (error) {
        await unit?.catch(() => {}); // never leave it running behind the summary
        throw error;
      }
      t.env.BOOKSTORE_FIRESTORE_KIND = suite.firestore;
      if (suite.firestore === 'stand-in' && findCloudSdkJar()) throw new Error('The official Firestore emulator is installed but the npm stand-in ran: unset BOOKSTORE_FIRESTORE.');
      const inproc = wants('inproc') ? t.beside('inproc', (out) => run('inproc', out)) : undefined;
      if (wants('api')) await t.timed('api (parallel files)', () => run('api'));
      await Promise.all([unit, inproc]);
    } else {
      console.log(`A shop answers at ${SHOP_URL}: the tests use its emulators, on databases and buckets of their own (${INPROC_DATABASE}-<worker>).`);
      t.env.BOOKSTORE_FIRESTORE_KIND = chooseFirestore(); // what `npm start` chose in this checkout
      // A Stripe stand-in of this run's own: the shop's would send the in-process orders' events
      // (refunds, sessions expiring later) to the shop's webhook, which records them in its database.
      stripe = await startStripeStandIn({ port: 0, webhookUrl: 'http://127.0.0.1:9/nowhere', webhookSecret: STRIPE_WEBHOOK_SECRET, deliveryAttempts: 1 });
      t.env.STRIPE_API_BASE = stripe.url;
      const since = Date.now();
      tidy = async () => {
        await emptyInprocData();
        const deleted = await deleteTestAccounts(since);
        console.log(`Tidied the shop's emulators: databases and buckets ${INPROC_DATABASE}-<worker> emptied, ${deleted} test accounts deleted.`);
      };
      await emptyInprocData(); // what an interrupted run may have left
      await Promise.all([
        wants('unit') ? t.beside('unit', (out) => run('unit', out)) : undefined,
        wants('inproc') ? t.timed('inproc', () => run('inproc')) : undefined,
      ]);
    }
  } finally {
    await stop();
  }
}

t.finish(main());
