import { LOGIN_CEILING_FAILURES, LOGIN_CEILING_WINDOW_MS } from '../config';
import { giveBackSlot, takeSlot, type WindowLimit } from '../lib/window-limit';
import { clearLoginAttempts, reserveLoginAttempt } from './admins.repo';
import type { Device } from './device-cookie';

// The admin door's budgets, taken before the password is checked (each attempt counts as a
// failure until it succeeds):
// - a browser with a valid device cookie for the username: that device's own budget, nothing else,
//   so a spray at the username elsewhere never locks its staff member's own browser out;
// - any other client: the per-address delay (admins.repo.ts, the second layer), then the
//   username's ceiling, shared by every address, so inventing addresses buys nothing.
// All three answer 429 'Too many login attempts. Try again later.' with Retry-After.

const MESSAGE = 'Too many login attempts. Try again later.';
const UNTRUSTED: WindowLimit = { collection: 'loginCeilings', limit: LOGIN_CEILING_FAILURES, windowMs: LOGIN_CEILING_WINDOW_MS, message: MESSAGE };
const DEVICE: WindowLimit = { ...UNTRUSTED, collection: 'loginDevices' };

/** Takes the attempt's budgets (or throws 429); the returned function gives them back after a success. */
export async function reserveSignIn(username: string, address: string, device: Device | null): Promise<() => Promise<void>> {
  if (device) {
    const key = `${username}\n${device.nonce}`;
    const slot = await takeSlot(DEVICE, key);
    return () => giveBackSlot(DEVICE, key, slot);
  }
  await reserveLoginAttempt(username, address);
  const slot = await takeSlot(UNTRUSTED, username);
  return async () => {
    await clearLoginAttempts(username, address);
    await giveBackSlot(UNTRUSTED, username, slot);
  };
}
