import { LOGIN_CEILING_FAILURES, LOGIN_CEILING_WINDOW_MS } from '../config';
import { giveBackSlot, takeSlot, type WindowLimit } from '../lib/window-limit';
import { clearLoginAttempts, reserveLoginAttempt, TOO_MANY_ATTEMPTS } from './admins.repo';
import type { Device } from './device-cookie';

// The admin door's budgets, taken before the password is checked (each attempt counts as a
// failure until it succeeds):
// - a browser with a valid device cookie for the username: the username's device budget, nothing
//   else, so a spray at the username elsewhere never locks its staff member's own browser out. One
//   budget for ALL of the username's cookies (issue 36): each sign-in mints a cookie, and a budget
//   per cookie would let someone who signs in (or steals cookies) multiply their guesses;
// - any other client: the per-address delay (admins.repo.ts, the second layer), then the
//   username's ceiling, shared by every address, so inventing addresses buys nothing.
// All three answer 429 'Too many login attempts. Try again later.' with Retry-After.

const UNTRUSTED: WindowLimit = { collection: 'loginCeilings', limit: LOGIN_CEILING_FAILURES, windowMs: LOGIN_CEILING_WINDOW_MS, message: TOO_MANY_ATTEMPTS };
const DEVICE: WindowLimit = { ...UNTRUSTED, collection: 'loginDevices' };

/** What an attempt took of the budgets, to give back when it turns out not to be a failure. */
export interface SignInBudget {
  /** The password (and code) were right. */
  succeeded(): Promise<void>;
  /** No password was checked (the hash gate was full): the username's or the device's slot comes back. */
  unchecked(): Promise<void>;
}

/** Takes the attempt's budgets (or throws 429). `address` is read only for a client without the device cookie. */
export async function reserveSignIn(username: string, address: () => string, device: Device | null): Promise<SignInBudget> {
  if (device) {
    const key = `${username}\ndevices`;
    const slot = await takeSlot(DEVICE, key);
    const giveBack = () => giveBackSlot(DEVICE, key, slot);
    return { succeeded: giveBack, unchecked: giveBack };
  }
  const from = address();
  await reserveLoginAttempt(username, from);
  const slot = await takeSlot(UNTRUSTED, username);
  const giveBack = () => giveBackSlot(UNTRUSTED, username, slot);
  return {
    async succeeded() {
      await clearLoginAttempts(username, from);
      await giveBack();
    },
    unchecked: giveBack,
  };
}
