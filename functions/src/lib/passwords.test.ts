import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

describe('scrypt passwords', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('admin123');
    const b = await hashPassword('admin123');
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$32768$8$1$')).toBe(true);
    expect(await verifyPassword('admin123', a)).toBe(true);
    expect(await verifyPassword('admin124', a)).toBe(false);
    expect(await verifyPassword('admin123', 'plain-text')).toBe(false);
  });
});
