import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, OWASP_PARAMS, scryptParams, verifyPassword } from './passwords';

describe('scrypt passwords', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('admin123', OWASP_PARAMS);
    const b = await hashPassword('admin123', OWASP_PARAMS);
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$32768$8$3$')).toBe(true); // OWASP's N=2^15, r=8, p=3 (equivalent to 2^17, 8, 1)
    expect(await verifyPassword('admin123', a)).toBe(true);
    expect(await verifyPassword('admin124', a)).toBe(false);
    expect(await verifyPassword('admin123', 'plain-text')).toBe(false);
  });

  it('verifies hashes made with other parameters, and says they need redoing', async () => {
    const old = await hashPassword('admin123', { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    expect(await verifyPassword('admin123', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('admin123'))).toBe(false);
    expect(needsRehash(await hashPassword('admin123', scryptParams()))).toBe(false);
  });
});

describe('scryptParams', () => {
  const ask = { BOOKSTORE_TEST_CHEAP_HASH: '1' };
  it("is OWASP's unless the test run asks and the data is a local emulator's", () => {
    expect(scryptParams({})).toEqual(OWASP_PARAMS);
    expect(scryptParams({ FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' })).toEqual(OWASP_PARAMS); // npm start
    expect(scryptParams(ask)).toEqual(OWASP_PARAMS); // a deployed function: no emulator
    expect(scryptParams({ ...ask, FIRESTORE_EMULATOR_HOST: 'firestore.example.com:8080' })).toEqual(OWASP_PARAMS);
    expect(scryptParams({ ...ask, BOOKSTORE_TEST_CHEAP_HASH: 'true', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' })).toEqual(OWASP_PARAMS);
    const cheap = scryptParams({ ...ask, FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' });
    expect(cheap.N * cheap.r * cheap.p).toBeLessThan(OWASP_PARAMS.N * OWASP_PARAMS.r * OWASP_PARAMS.p);
  });
});
