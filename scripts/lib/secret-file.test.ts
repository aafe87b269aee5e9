import { describe, expect, it } from 'vitest';
import { readSecret, withSecrets } from './secret-file';

describe('functions/.secret.local rewritten by the launcher', () => {
  const before = 'ADMIN_JWT_SECRET=abc\nSTRIPE_SECRET_KEY=sk_test_x\nSTRIPE_WEBHOOK_SECRET=whsec_y\nSMTP_URI=smtp://127.0.0.1:1025\n';

  it("moves SMTP_URI to this port slot's inbox and keeps every other secret as it was", () => {
    const after = withSecrets(before, { ADMIN_JWT_SECRET: 'abc', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_y', SMTP_URI: 'smtp://127.0.0.1:11025' })!;
    expect(readSecret(after, 'SMTP_URI')).toBe('smtp://127.0.0.1:11025');
    expect(after.match(/^SMTP_URI=/gm)).toHaveLength(1);
    expect(after).toContain('ADMIN_JWT_SECRET=abc\nSTRIPE_SECRET_KEY=sk_test_x\nSTRIPE_WEBHOOK_SECRET=whsec_y\n');
  });

  it('adds what a file from before is missing (a real Stripe key put there by hand stays), and leaves an up-to-date file alone', () => {
    const old = 'ADMIN_JWT_SECRET=abc\nSTRIPE_SECRET_KEY=sk_test_real\n';
    const after = withSecrets(old, { ADMIN_JWT_SECRET: 'abc', STRIPE_SECRET_KEY: 'sk_test_real', STRIPE_WEBHOOK_SECRET: 'whsec_new', SMTP_URI: 'smtp://127.0.0.1:1025' })!;
    expect(after).toBe('ADMIN_JWT_SECRET=abc\nSTRIPE_SECRET_KEY=sk_test_real\nSTRIPE_WEBHOOK_SECRET=whsec_new\nSMTP_URI=smtp://127.0.0.1:1025\n');
    expect(withSecrets(before, { ADMIN_JWT_SECRET: 'abc', SMTP_URI: 'smtp://127.0.0.1:1025' })).toBeNull();
    expect(withSecrets('', { SMTP_URI: 'smtp://127.0.0.1:1025' })).toBe('SMTP_URI=smtp://127.0.0.1:1025\n');
  });
});
