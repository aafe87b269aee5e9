import { relative } from 'node:path';
import { DEMO_ADMIN, DEMO_CUSTOMER, INBOX_URL, ROOT, SHOP_URL, STRIPE_STAND_IN_URL, TEST_CARDS } from './lib/env';
import { build } from './lib/build';
import { startLocalSchedules } from './lib/local-schedules';
import { registerLocalReader } from './lib/local-reader';
import { SAVE_INTERVAL_MS, startSuite } from './lib/suite';

// BOOKSTORE_STATE_DIR lets the fault tests run a shop on a throwaway folder.
const STATE_DIR = process.env.BOOKSTORE_STATE_DIR ?? `${ROOT}emulator-data/state`;

async function main() {
  const started = Date.now();
  console.log('Starting the Firebase Emulator Suite (project demo-bookstore) while the app builds...');
  // Firestore (a JVM) and Storage boot while web and functions build; the firebase CLI's emulators,
  // which serve the build, start once it is done.
  const suite = await startSuite({ stateDir: STATE_DIR, verbose: process.argv.includes('--verbose'), before: build() });
  // The emulators run no schedule: the launcher calls releaseHolds, sweepMail... on theirs (local-schedules.ts).
  const schedules = await startLocalSchedules((line) => console.log(line));
  // Issue 57: the local till's simulated card reader (the stand-in forgets it at each stop).
  const reader = await registerLocalReader(process.env.STRIPE_SECRET_KEY ?? '').catch((error: unknown) => `not registered (${(error as Error).message})`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    schedules.stop();
    console.log(`\n${signal}: saving data and stopping the emulators...`);
    await suite.stop();
    console.log(`Stopped. Data saved in ${relative(process.cwd(), STATE_DIR) || STATE_DIR}.`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));

  console.log(`
  The Bookstore is running (ready in ${Math.round((Date.now() - started) / 1000)} s${suite.seeded ? ', demo data seeded' : ''}).

    Shop:       ${SHOP_URL}
    Dashboard:  ${SHOP_URL}/admin   (username ${DEMO_ADMIN.username}, password ${DEMO_ADMIN.password})
    Customer:   ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}
    API:        ${SHOP_URL}/api/books
    Mail:       ${INBOX_URL}   (the developer's inbox: every mail the shop sent, none leaves this machine)
    Stripe:     ${STRIPE_STAND_IN_URL}   (our stand-in: 'Pay by Card' at checkout opens its payment page)
    Test cards: ${TEST_CARDS.pays} pays; ${TEST_CARDS.declined} is declined
    Reader:     ${reader}   (the local till's simulated Stripe Terminal reader: present a card with POST ${STRIPE_STAND_IN_URL}/v1/test_helpers/terminal/readers/<id>/present_payment_method)
    Schedules:  ${schedules.functions.map((f) => `${f.name} (${f.schedule})`).join(', ') || 'none'}   (run by this launcher; mail to any address at throttled.test is refused twice with 421, at refused.test always with 550)

  Data is saved every ${SAVE_INTERVAL_MS / 1000} s and on exit. Press Ctrl-C to stop.
`);
}

main().catch((error) => {
  console.error(`\nCould not start the shop: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
