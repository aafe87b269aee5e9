// What `npm run test:quick` runs, and on what (scripts/test-quick.ts, docs/test-quick.md).

/**
 * Its lanes, vitest projects (vitest.config.ts): `unit` (unit and component tests), `inproc` (the
 * function's handler in this process, on a database and a bucket of its own) and `api` (the API files
 * that share the shop: every *.api.test.ts but the *.serial.api.test.ts ones).
 */
export const QUICK_LANES = ['unit', 'inproc', 'api'] as const;
export type QuickLane = (typeof QUICK_LANES)[number];
const isLane = (arg: string): arg is QuickLane => (QUICK_LANES as readonly string[]).includes(arg);

export interface QuickPlan {
  lanes: QuickLane[];
  /** File name filters, given to every lane. */
  filters: string[];
  /** A throwaway emulator suite of its own: a lane needs emulators and no shop runs on this port slot. */
  boot: boolean;
  /** On the emulators of the running shop (`npm start`). */
  besideShop: boolean;
  /** Lanes asked for that cannot run here, and why. */
  skipped: string[];
}

/**
 * `args`: lane names and file name filters, as `npm test` takes them (none: every lane).
 * Beside a running shop the `api` lane does not run: its files call the function through Hosting,
 * and the shop's function serves the shop's own database, which they would fill with test orders,
 * accounts and books (docs/test-quick.md).
 */
export function quickPlan(args: string[], shopRunning: boolean): QuickPlan {
  const named = args.filter(isLane);
  const filters = args.filter((arg) => !isLane(arg));
  const wanted = named.length > 0 ? QUICK_LANES.filter((lane) => named.includes(lane)) : [...QUICK_LANES];
  const lanes = shopRunning ? wanted.filter((lane) => lane !== 'api') : wanted;
  const emulators = lanes.some((lane) => lane !== 'unit');
  return {
    lanes,
    filters,
    boot: emulators && !shopRunning,
    besideShop: emulators && shopRunning,
    skipped: wanted.includes('api') && shopRunning ? ["api: the shop's function would write its files' data into the shop's database; stop the shop (or run `npm test -- api`) to run them"] : [],
  };
}

/** The address signUpCustomer (scripts/lib/fixtures.ts) gives each test account: `<prefix>-<ms>-<random>@example.com`. */
const TEST_ACCOUNT_EMAIL = /^[\w.-]+-\d{13}-[a-z0-9]{1,8}@example\.com$/;

/**
 * An Auth account the tests made since `since` (ms): the ones test:quick deletes after a run beside
 * a running shop, whose Auth emulator the tests share. Any other account (the demo customer, one a
 * developer made in the shop meanwhile) is the shop's.
 */
export function isTestAccount(account: { email?: string; creationTime: string }, since: number): boolean {
  // creationTime is a UTC date string to the second ('Sun, 06 Dec 2026 10:45:32 GMT').
  return !!account.email && TEST_ACCOUNT_EMAIL.test(account.email) && Date.parse(account.creationTime) >= Math.floor(since / 1000) * 1000;
}
