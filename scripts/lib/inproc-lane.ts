/**
 * The in-process lane's data (vitest.config.ts, functions/test/inproc-setup.ts): each vitest worker
 * (VITEST_POOL_ID 1..n) has a Firestore database and a Storage bucket of its own, so the lane's files
 * check their whole database while another file runs beside them, and never see the shop's.
 */
export const INPROC_DATABASE = 'inproc';

/** Worker `n`'s database, e.g. `inproc-1`. */
export const inprocDatabase = (worker: number): string => `${INPROC_DATABASE}-${worker}`;

/** Worker `n`'s bucket, e.g. `demo-bookstore-inproc-1.appspot.com`. */
export const inprocBucket = (worker: number): string => `demo-bookstore-${INPROC_DATABASE}-${worker}.appspot.com`;

/** The vitest worker this process is (1 outside a pool). */
export const inprocWorker = (env: NodeJS.ProcessEnv = process.env): number => Number(env.VITEST_POOL_ID) || 1;
