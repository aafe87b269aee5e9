import { defineConfig } from 'vitest/config';

/** API test files that need the shop to themselves (docs/testing.md). */
const SERIAL_API = 'functions/test/**/*.serial.api.test.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Component tests (*.test.tsx) run in happy-dom, chosen per file with `// @vitest-environment happy-dom`.
          include: ['contract/src/**/*.test.ts', 'functions/src/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          // Forms probe the network when they open: answered here, since happy-dom has no server.
          setupFiles: ['web/src/test/network-probe.ts'],
          environment: 'node',
          // A component test types a whole form (user-event): seconds on a busy 2-core machine, and
          // `npm test` runs this layer beside the emulator tests. A limit, not a speed assertion.
          testTimeout: 30_000,
        },
      },
      {
        // The function's handler in-process (functions/test/inproc-setup.ts) over the same emulators
        // as `api`, each worker on a database and a bucket of its own (scripts/lib/inproc-lane.ts,
        // seeded like the shop's): its files check their whole database, yet run beside each other
        // and beside the other lanes (docs/testing.md).
        test: {
          name: 'inproc',
          include: ['functions/test/**/*.inproc.test.ts'],
          setupFiles: ['functions/test/inproc-setup.ts', 'functions/test/api-setup.ts'],
          // As under the Functions emulator: X-Firestore-Reads, and client addresses as it sees them.
          env: { FUNCTIONS_EMULATOR: 'true' },
          // A worker's files share its modules, as one warm instance serves request after request:
          // the app loads once a worker, not once a file (half the lane's CPU time). Each file still
          // serves the handler afresh (inproc-setup.ts) and puts back what it changes.
          isolate: false,
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // HTTP through Hosting to the running emulator suite (scripts/test.ts boots it). Files run
        // beside each other (scripts/test.ts gives the workers), so each makes its own data;
        // a file named *.serial.api.test.ts runs alone, after them, in `api-serial` (docs/testing.md).
        test: {
          name: 'api',
          include: ['functions/test/**/*.api.test.ts'],
          exclude: [SERIAL_API],
          setupFiles: ['functions/test/api-setup.ts'],
          environment: 'node',
          // A limit, not a speed assertion (speed is the bench's): each request answers within its
          // own deadline (55 s for a write, lib/deadline.ts), but a test of requests at once queues
          // in Firestore's locks, and beside the other files on a loaded CI machine one took 39 s
          // that takes 7.5 s alone.
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The files that need the shop to themselves: whole-database checks (nothing stored changed,
        // counters equal a recount), shop-wide settings. One file at a time, nothing beside them.
        test: {
          name: 'api-serial',
          include: [SERIAL_API],
          setupFiles: ['functions/test/api-setup.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // After the API and browser tests: the queries they made the function run need declared indexes.
        test: { name: 'indexes', include: ['scripts/check-indexes.ts'], environment: 'node' },
      },
    ],
  },
});
