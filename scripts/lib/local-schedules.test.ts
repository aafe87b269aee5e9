import { describe, expect, it } from 'vitest';
import { keyFromListing, scheduleIntervalMs } from './local-schedules';

// npm start runs the scheduled functions itself (the emulators do not): their schedules, and their
// keys in the Functions emulator's listing.
describe('local schedules', () => {
  it("understands 'every N minutes' and 'every N hours', and nothing else", () => {
    expect(scheduleIntervalMs('every 1 minutes')).toBe(60_000);
    expect(scheduleIntervalMs('every 60 minutes')).toBe(3_600_000);
    expect(scheduleIntervalMs('every 2 hours')).toBe(7_200_000);
    expect(scheduleIntervalMs('every 0 minutes')).toBeNull();
    expect(scheduleIntervalMs('0 3 * * *')).toBeNull();
    expect(scheduleIntervalMs('every day 03:00')).toBeNull();
  });

  it("finds a function's key (its latest generation) in the emulator's 404 listing, and not a longer name's", () => {
    const listing = 'Function list-of-keys does not exist, valid functions are: us-central1-api, us-central1-sweepMailer-3, us-central1-sweepMail-0, us-central1-sweepMail-2, us-central1-sendMail-2';
    expect(keyFromListing(listing, 'us-central1-sweepMail')).toBe('us-central1-sweepMail-2');
    expect(keyFromListing(listing, 'us-central1-releaseHolds')).toBeNull();
  });
});
