import { releaseHoldsJob } from '../orders/release-holds';

// The `releaseHolds` function's code (lib/release-holds.js): the hourly release of uncollected pickups.
export default async function run(): Promise<void> {
  await releaseHoldsJob();
}
