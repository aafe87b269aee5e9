import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
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

  it('locks a username after 5 failures for 15 minutes, even with the right password and a new X-Forwarded-For', async () => {
    const username = `victim${Date.now()}`;
    await db().collection('admins').doc(username).set({ username, role: 'admin', passwordHash: await hashPassword('right-pass') });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const password = i === 6 ? 'right-pass' : `guess${i}`;
      const res = await http('/api/auth/admin', { method: 'POST', headers: { 'X-Forwarded-For': `10.0.0.${i}` }, json: { username, password } });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(800);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    await db().collection('admins').doc(username).delete();
  });

  it('rejects missing fields and over-long passwords with 400', async () => {
    expect((await http('/api/auth/admin', { method: 'POST', json: { username: 'admin' } })).status).toBe(400);
    const long = await http('/api/auth/admin', { method: 'POST', json: { username: 'admin', password: 'x'.repeat(1025) } });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('Password is too long');
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
