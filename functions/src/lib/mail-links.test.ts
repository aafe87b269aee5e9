import { describe, expect, it } from 'vitest';
import { claimedPurpose, signMailLink, verifyMailLink } from './mail-links';
import { signAdminToken, verifyAdminToken } from './jwt';

const SECRET = 'x'.repeat(40);

describe('mail links', () => {
  it('verifies what it signed, for its purpose only', () => {
    const token = signMailLink({ p: 'newsletter-confirm', e: 'a@example.com', n: 'abc', x: 2_000_000_000 }, SECRET);
    expect(verifyMailLink(token, 'newsletter-confirm', SECRET)).toEqual({ p: 'newsletter-confirm', e: 'a@example.com', n: 'abc', x: 2_000_000_000 });
    expect(verifyMailLink(token, 'newsletter-unsubscribe', SECRET)).toBeNull();
    expect(verifyMailLink(token, 'alerts-unsubscribe', SECRET)).toBeNull();
    expect(claimedPurpose(token)).toBe('newsletter-confirm');
  });

  it('refuses another key, a changed payload, an expired token and junk', () => {
    const token = signMailLink({ p: 'newsletter-unsubscribe', e: 'a@example.com' }, SECRET);
    expect(verifyMailLink(token, 'newsletter-unsubscribe', 'y'.repeat(40))).toBeNull();
    const [, sig] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ p: 'newsletter-unsubscribe', e: 'b@example.com' })).toString('base64url')}.${sig}`;
    expect(verifyMailLink(forged, 'newsletter-unsubscribe', SECRET)).toBeNull();
    const expired = signMailLink({ p: 'newsletter-confirm', e: 'a@example.com', x: 1000 }, SECRET);
    expect(verifyMailLink(expired, 'newsletter-confirm', SECRET)).toBeNull();
    for (const junk of ['', '.', 'a.b', `${token}.x`, 'é.é']) expect(verifyMailLink(junk, 'newsletter-unsubscribe', SECRET)).toBeNull();
    expect(verifyMailLink(token, 'newsletter-unsubscribe', '')).toBeNull();
  });

  it('is never an admin token, and an admin token is never a mail link (distinct keys)', () => {
    const link = signMailLink({ p: 'newsletter-unsubscribe', e: 'admin' }, SECRET);
    expect(verifyAdminToken(link, SECRET, 3600)).toBeNull();
    const admin = signAdminToken('admin', 1, SECRET, 3600);
    expect(verifyMailLink(admin, 'newsletter-unsubscribe', SECRET)).toBeNull();
  });
});
