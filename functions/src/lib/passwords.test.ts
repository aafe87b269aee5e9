import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './passwords';

describe('scrypt passwords', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('admin123');
    const b = await hashPassword('admin123');
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$32768$8$3$')).toBe(true); // OWASP's N=2^15, r=8, p=3 (equivalent to 2^17, 8, 1)
    expect(await verifyPassword('admin123', a)).toBe(true);
    expect(await verifyPassword('admin124', a)).toBe(false);
    expect(await verifyPassword('admin123', 'plain-text')).toBe(false);
  });

  it('verifies hashes made with older parameters, and says they need redoing', async () => {
    const old = await hashPassword('admin123', { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    expect(await verifyPassword('admin123', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('admin123'))).toBe(false);
  });
});
