import { describe, expect, it } from 'vitest';
import { describeError, isPermanent } from './send-mail';

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
  });
});

describe('the error recorded on the mail document', () => {
  it("never carries the URI's password, even percent-encoded", () => {
    expect(describeError({ message: 'Invalid login: 535 for user shop with p@ss:word' }, 'smtps://shop:p%40ss%3Aword@smtp.host.test:465')).toBe('Invalid login: 535 for user shop with ***');
    expect(describeError({ message: 'connect ECONNREFUSED 127.0.0.1:25' }, 'not a url')).toBe('connect ECONNREFUSED 127.0.0.1:25');
  });
});
