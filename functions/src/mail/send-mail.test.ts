import { describe, expect, it } from 'vitest';
import { MAX_MAIL_ATTEMPTS, mailRetryDelayMs } from '@bookstore/contract';
import { describeError, isPermanent, smtpUriRefusal } from './send-mail';

describe('which SMTP failures are tried again', () => {
  it('a 5xx reply is permanent; a 4xx reply and a connection error are transient', () => {
    expect(isPermanent({ responseCode: 550, code: 'EENVELOPE' })).toBe(true);
    expect(isPermanent({ responseCode: 535, code: 'EAUTH' })).toBe(true);
    expect(isPermanent({ responseCode: 451, code: 'EENVELOPE' })).toBe(false);
    expect(isPermanent({ responseCode: 421 })).toBe(false);
    expect(isPermanent({ code: 'ECONNECTION' })).toBe(false);
    expect(isPermanent({ code: 'ETIMEDOUT' })).toBe(false);
  });

  it('an envelope or message nodemailer itself refuses (no reply code) is permanent', () => {
    expect(isPermanent({ code: 'EENVELOPE' })).toBe(true);
    expect(isPermanent({ code: 'EMESSAGE' })).toBe(true);
    expect(isPermanent({ code: 'ECONFIG' })).toBe(true); // an SMTP_URI we refuse (no TLS)
  });
});

describe('when a temporary refusal is tried again', () => {
  it('30 s after the first try, four times longer each time up to 12 h: the last of the tries about a day after the first', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(mailRetryDelayMs)).toEqual([30_000, 120_000, 480_000, 1_920_000, 7_680_000, 30_720_000, 43_200_000]);
    const total = Array.from({ length: MAX_MAIL_ATTEMPTS - 1 }, (_, i) => mailRetryDelayMs(i + 1)).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20 * 3_600_000);
    expect(total).toBeLessThanOrEqual(24 * 3_600_000);
  });
});

describe('SMTP_URI without TLS', () => {
  const deployed = {};
  const emulated = { FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' };
  it('is refused outside the emulators: plain smtp:// to a remote host, or requireTLS not true', () => {
    expect(smtpUriRefusal('smtp://u:p@smtp.provider.test:587', deployed)).toContain('without TLS');
    expect(smtpUriRefusal('smtp://u:p@smtp.provider.test:587?requireTLS=false', deployed)).toContain('without TLS');
    expect(smtpUriRefusal('smtp://u:p@smtp.provider.test:587', { FIRESTORE_EMULATOR_HOST: 'firestore.attacker.test:8080' })).toContain('without TLS');
    expect(smtpUriRefusal('http://smtp.provider.test', deployed)).toContain('must start with');
    expect(smtpUriRefusal('not a url', deployed)).toContain('not a URL');
  });

  it('is used over smtps://, with requireTLS=true, to a loopback host, or under the local emulators', () => {
    expect(smtpUriRefusal('smtps://u:p@smtp.provider.test:465', deployed)).toBeNull();
    expect(smtpUriRefusal('smtp://u:p@smtp.provider.test:587?requireTLS=true', deployed)).toBeNull();
    expect(smtpUriRefusal('smtp://127.0.0.1:1025', deployed)).toBeNull();
    expect(smtpUriRefusal('smtp://mailhog.internal:1025', emulated)).toBeNull();
  });
});

describe('the error recorded on the mail document', () => {
  it("never carries the URI's password, even percent-encoded", () => {
    expect(describeError({ message: 'Invalid login: 535 for user shop with p@ss:word' }, 'smtps://shop:p%40ss%3Aword@smtp.host.test:465')).toBe('Invalid login: 535 for user shop with ***');
    expect(describeError({ message: 'connect ECONNREFUSED 127.0.0.1:25' }, 'not a url')).toBe('connect ECONNREFUSED 127.0.0.1:25');
  });
});
