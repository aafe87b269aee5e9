import { describe, expect, it } from 'vitest';
import { Timestamp } from 'firebase-admin/firestore';
import { hashPassword, scryptParams } from '../src/lib/passwords';
import { db, http } from './helpers';

// Admin login's logic, in-process (inproc-setup.ts): the throttle, one canonical username, the
// attempt counters' expiry, input limits. Token issue, refusal and revocation through Hosting:
// admin.api.test.ts.

describe('POST /api/auth/admin', () => {
  it('slows one address down after 5 failures while the right password from another address still works', async () => {
    const username = `victim${Date.now()}`;
    await db().collection('admins').doc(username).set({ username, role: 'admin', passwordHash: await hashPassword('right-pass') });
    const from = (address: string, password: string) =>
      http('/api/auth/admin', { method: 'POST', headers: { 'X-Forwarded-For': address }, json: { username, password } });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await from('192.0.2.10', i === 6 ? 'right-pass' : `guess${i}`);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toEqual({ message: 'Too many login attempts. Try again later.' });
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // the real admin, elsewhere: not locked out by the attack on the username
    const elsewhere = await from('198.51.100.20', 'right-pass');
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.user).toEqual({ username, role: 'admin' });
    expect((await from('192.0.2.10', 'right-pass')).status).toBe(429); // the attacker's address still waits
    await db().collection('admins').doc(username).delete();
  });

  it('redoes a hash made with older scrypt parameters at the next sign-in; the password keeps working', async () => {
    const username = `upgrade${Date.now()}`;
    const ref = db().collection('admins').doc(username);
    const old = await hashPassword('right-pass', { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    await ref.set({ username, role: 'bookseller', passwordHash: old });
    const signIn = () => http('/api/auth/admin', { method: 'POST', headers: { 'X-Forwarded-For': '192.0.2.90' }, json: { username, password: 'right-pass' } });
    expect((await signIn()).status).toBe(200);
    const upgraded = (await ref.get()).data()!.passwordHash as string;
    expect(upgraded).not.toBe(old);
    const { N, r, p } = scryptParams();
    expect(upgraded.startsWith(`scrypt$${N}$${r}$${p}$`)).toBe(true);
    expect((await signIn()).status).toBe(200);
    expect((await ref.get()).data()!.passwordHash).toBe(upgraded); // current hashes are left alone
    await ref.delete();
  });

  it('one canonical username: any case logs in, a path-like name is 401 with no counter and no lookup', async () => {
    const attempts = async () => (await db().collection('loginAttempts').count().get()).data().count;
    const before = await attempts();
    for (const username of ['admin/', '/admin', '/admin/', 'a/b', '__name__', '.', '..']) {
      const res = await http('/api/auth/admin', { method: 'POST', headers: { 'X-Forwarded-For': '192.0.2.77' }, json: { username, password: 'admin123' } });
      expect(res.status, username).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid credentials' });
    }
    expect(await attempts()).toBe(before);
    const upper = await http('/api/auth/admin', { method: 'POST', headers: { 'X-Forwarded-For': '192.0.2.78' }, json: { username: ' ADMIN ', password: 'admin123' } });
    expect(upper.status).toBe(200);
    expect(upper.body.user.username).toBe('admin');
  });

  it('stores each failed attempt with an expireAt for the TTL policy, never without one', async () => {
    const username = `nobody${Date.now()}`;
    const res = await http('/api/auth/admin', { method: 'POST', headers: { 'X-Forwarded-For': '192.0.2.99' }, json: { username, password: 'x' } });
    expect(res.status).toBe(401);
    const snap = await db().collection('loginAttempts').get();
    expect(snap.size).toBeGreaterThan(0);
    const now = Date.now();
    for (const doc of snap.docs) {
      const expireAt = doc.get('expireAt');
      expect(expireAt).toBeInstanceOf(Timestamp);
      expect(expireAt.toMillis()).toBeGreaterThan(now);
      expect(expireAt.toMillis()).toBeLessThanOrEqual(now + 25 * 3600 * 1000);
    }
  });

  it('rejects missing fields and over-long passwords with 400', async () => {
    expect((await http('/api/auth/admin', { method: 'POST', json: { username: 'admin' } })).status).toBe(400);
    const long = await http('/api/auth/admin', { method: 'POST', json: { username: 'admin', password: 'x'.repeat(1025) } });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('Password is too long');
  });
});
