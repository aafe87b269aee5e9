import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUrl, totpCode, totpStep } from './totp';

// RFC 6238 appendix B (SHA-1 rows): the seed is the ASCII string "12345678901234567890", 8 digits.
const RFC_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC_SECRET = base32Encode(RFC_SEED);
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, SHA-1, 30 s)', () => {
  it.each(VECTORS)('matches the RFC 6238 vector at T=%i', (seconds, code) => {
    expect(totpCode(RFC_SECRET, seconds * 1000, 8)).toBe(code);
  });

  it('matches RFC 4226 appendix D (HOTP) for counters 0..9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, i) => hotp(RFC_SEED, i))).toEqual(expected);
  });

  it('round-trips base32 (RFC 4648 test strings)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
  });

  it('accepts the codes of now and one step either side, and nothing further', () => {
    const now = 1_700_000_015_000;
    const at = (dSteps: number) => totpCode(RFC_SECRET, now + dSteps * 30_000);
    expect(matchTotp(RFC_SECRET, at(0), now)).toBe(totpStep(now));
    expect(matchTotp(RFC_SECRET, at(-1), now)).toBe(totpStep(now) - 1);
    expect(matchTotp(RFC_SECRET, at(1), now)).toBe(totpStep(now) + 1);
    for (const d of [-3, -2, 2, 3]) if (![at(-1), at(0), at(1)].includes(at(d))) expect(matchTotp(RFC_SECRET, at(d), now)).toBeNull();
    expect(matchTotp(RFC_SECRET, '12345', now)).toBeNull();
    expect(matchTotp(RFC_SECRET, 'abcdef', now)).toBeNull();
  });

  it('refuses a code of a step already used, or of an earlier one', () => {
    const now = 1_700_000_015_000;
    const step = totpStep(now);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now), now, step)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now, step - 1)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), now, step)).toBe(step + 1);
  });

  it('builds the otpauth URL apps scan', () => {
    expect(otpauthUrl('Bookstore', 'ada', 'MZXW6YTBOI')).toBe(
      'otpauth://totp/Bookstore:ada?secret=MZXW6YTBOI&issuer=Bookstore&algorithm=SHA1&digits=6&period=30',
    );
  });
});
