import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { saveAdmin } from '../../scripts/create-admin';
import { hashPassword } from '../src/lib/passwords';
import { adminToken, db, http, newCustomer } from './helpers';

describe('POST /api/auth/admin', () => {
  it('issues an HS256 token valid for one hour', async () => {
    const res = await http('/api/auth/admin', { method: 'POST', json: { username: 'admin', password: 'admin123' } });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ username: 'admin', role: 'admin' });
    const [header, payload] = res.body.token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims).toMatchObject({ sub: 'admin', role: 'admin', aud: 'bookstore-admin', iss: 'bookstore-api' });
    expect(Number.isInteger(claims.ver)).toBe(true);
  });

  it('gives unknown users and wrong passwords the same 401', async () => {
    const wrong = await http('/api/auth/admin', { method: 'POST', json: { username: 'admin', password: 'nope' } });
    const unknown = await http('/api/auth/admin', { method: 'POST', json: { username: `ghost${Date.now()}`, password: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid credentials' });
    expect(unknown.body).toEqual(wrong.body);
    // a success resets the admin's counter, so the later tests can still log in
    expect((await http('/api/auth/admin', { method: 'POST', json: { username: 'admin', password: 'admin123' } })).status).toBe(200);
  });

});

describe('GET /api/admin', () => {
  it('returns the stats with 12 months of sales', async () => {
    const res = await http('/api/admin', { token: await adminToken() });
    expect(res.status).toBe(200);
    expect(res.body.totalBooks).toBeGreaterThanOrEqual(24);
    expect(res.body.monthlySales).toHaveLength(12);
    expect(res.body.monthlySales[11].month).toBe(new Date().toISOString().slice(0, 7));
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('refuses missing, forged, alg:none, HS512 and customer tokens', async () => {
    const real = await adminToken();
    const [h, p] = real.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const guessed = `${h}.${p}.${createHmac('sha256', 'secret').update(`${h}.${p}`).digest('base64url')}`;
    const expiredPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), exp: 1 })).toString('base64url');
    const expired = `${h}.${expiredPayload}.${real.split('.')[2]}`;
    const customer = (await newCustomer()).token;
    for (const token of [null, 'garbage', none, guessed, expired, customer]) {
      const res = await http('/api/admin', { token });
      expect(res.status).toBe(401);
      expect(typeof res.body.message).toBe('string');
    }
  });
});

describe('revocable admin tokens', () => {
  /** A throwaway admin, so revoking its tokens cannot touch the other tests' `admin`. */
  async function freshAdmin(password = 'first-password') {
    const username = `revoke${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
    await db().collection('admins').doc(username).set({ username, role: 'admin', passwordHash: await hashPassword(password) });
    return username;
  }
  const login = async (username: string, password: string) => {
    const res = await http('/api/auth/admin', { method: 'POST', json: { username, password } });
    return { status: res.status, token: res.body?.token as string };
  };
  const stats = async (token: string) => (await http('/api/admin', { token })).status;

  it('POST /api/auth/admin/logout ends the token on the server; a new login works', async () => {
    const username = await freshAdmin();
    const first = await login(username, 'first-password');
    const second = await login(username, 'first-password');
    expect(await stats(first.token)).toBe(200);
    const out = await http('/api/auth/admin/logout', { method: 'POST', token: first.token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ message: 'Logged out' });
    expect(out.headers.get('cache-control')).toBe('private, no-store');
    for (const token of [first.token, second.token]) {
      const res = await http('/api/admin', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid or expired admin token' });
    }
    expect((await http('/api/auth/admin/logout', { method: 'POST', token: first.token })).status).toBe(401);
    expect((await http('/api/books/create-book', { method: 'POST', token: first.token, json: { title: 'x' } })).status).toBe(401);
    const again = await login(username, 'first-password');
    expect(await stats(again.token)).toBe(200);
    await db().collection('admins').doc(username).delete();
  });

  it('a new password from `npm run create-admin` ends every earlier token', async () => {
    const username = await freshAdmin();
    const before = await login(username, 'first-password');
    expect(await stats(before.token)).toBe(200);
    await saveAdmin(db(), username, 'second-password-123');
    expect(await stats(before.token)).toBe(401);
    expect((await login(username, 'first-password')).status).toBe(401);
    const after = await login(username, 'second-password-123');
    expect(after.status).toBe(200);
    expect(await stats(after.token)).toBe(200);
    await db().collection('admins').doc(username).delete();
  });

  it('a deleted admin’s token stops working at once', async () => {
    const username = await freshAdmin();
    const { token } = await login(username, 'first-password');
    expect(await stats(token)).toBe(200);
    await db().collection('admins').doc(username).delete();
    expect(await stats(token)).toBe(401);
    const orders = await http('/api/orders/email/reader@example.com', { token });
    expect(orders.status).toBe(401);
  });
});

describe('unknown routes and bodies', () => {
  it('answers JSON 404 for unknown API routes', async () => {
    const res = await http('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('No route');
  });

  it('answers malformed JSON with a JSON 400', async () => {
    const res = await http('/api/auth/admin', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"username":' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Request body is not valid JSON' });
  });
});
