import { createHmac } from 'node:crypto';

// The code an authenticator app shows (RFC 6238: HMAC-SHA-1, 30 s, 6 digits) for a base32 secret,
// computed the way a phone would, apart from the server's functions/src/admin/totp.ts (a CommonJS
// module Playwright's ESM loader cannot import by name): the sign-in succeeding shows they agree.
export function appCode(secret: string, nowMs = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(nowMs / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
