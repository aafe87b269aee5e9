import { FieldValue } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/admin/totp';
import { hashPassword } from '../src/lib/passwords';
import { adminToken, ageProofs, db, expectUnchanged, http, type Reply } from './helpers';

// Issue 36, item 2: staff actions that ask twice, and device cookies that end. Hostile cases: a
// stolen token (a session whose proof is old), guessing through the re-entry and the two-factor
// switch, cookies multiplied or kept past a password change. Proofs are made old by writing their
// time with firebase-admin (ageProofs), never by waiting.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const PASSWORD = 'margins-and-footnotes-9';
const REAUTH = { message: 'Confirm your password to continue', code: 'REAUTH_REQUIRED' };

let seq = 0;
/** A staff member written straight to Firestore (a fresh username: its own budgets). */
async function person(role: 'owner' | 'manager' | 'bookseller', over: Record<string, unknown> = {}): Promise<string> {
  const username = `hard-${role}-${RUN}-${(seq += 1)}`;
  await db().collection('admins').doc(username).set({ username, displayName: username, role, passwordHash: await hashPassword(PASSWORD), tokenVersion: 0, disabled: false, ...over });
  return username;
}

const signIn = (username: string, password = PASSWORD, extra: { otp?: string; cookie?: string; from?: string } = {}) =>
  http('/api/auth/admin', {
    method: 'POST',
    headers: { 'X-Forwarded-For': extra.from ?? '198.51.100.70', ...(extra.cookie ? { Cookie: extra.cookie } : {}) },
    json: { username, password, ...(extra.otp ? { otp: extra.otp } : {}) },
  });

async function tokenOf(username: string, password = PASSWORD, otp?: string): Promise<{ token: string; cookie: string }> {
  const res = await signIn(username, password, { otp });
  if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
}

const reauth = (token: string, password: string, otp?: string, from = '198.51.100.71') =>
  http('/api/auth/admin/reauth', { method: 'POST', token, headers: { 'X-Forwarded-For': from }, json: { password, ...(otp ? { otp } : {}) } });

/** Waits out the last 2 s of a 30 s TOTP step, so a code computed now is still current when the server checks it. */
async function steadyClock(): Promise<void> {
  const into = Date.now() % 30_000;
  if (into > 28_000) await new Promise((r) => setTimeout(r, 30_000 - into + 200));
}

const eventsOf = async (actor: string) =>
  (await db().collection('audit').where('actor', '==', actor).get()).docs.map((d) => d.data()).sort((a, b) => b.seq - a.seq);

describe('sensitive actions need a proof from the last 5 minutes (a stolen token is not enough)', () => {
  let owner: string;
  let session: { token: string; cookie: string };
  let target: string;
  beforeAll(async () => {
    owner = await person('owner');
    session = await tokenOf(owner);
    target = await person('bookseller');
  });

  // Every sensitive route. A refund is refused before its order is read (sensitivePaymentActions);
  // payments.api.test.ts refunds a paid card order after the re-entry.
  const SENSITIVE: [string, (token: string) => Promise<Reply>][] = [
    ['POST /api/admin/staff (create)', (token) => http('/api/admin/staff', { method: 'POST', token, json: { username: `made-${RUN}`, displayName: 'Made', role: 'bookseller', password: PASSWORD } })],
    ['PATCH /api/admin/staff/:u {role}', (token) => http(`/api/admin/staff/${target}`, { method: 'PATCH', token, json: { role: 'manager' } })],
    ['PATCH /api/admin/staff/:u {password}', (token) => http(`/api/admin/staff/${target}`, { method: 'PATCH', token, json: { password: 'a-brand-new-passphrase' } })],
    ['PATCH /api/admin/staff/:u {resetTotp}', (token) => http(`/api/admin/staff/${target}`, { method: 'PATCH', token, json: { resetTotp: true } })],
    ['PUT /api/admin/settings', (token) => http('/api/admin/settings', { method: 'PUT', token, json: { requireTotp: false } })],
    ['PUT /api/admin/settings/fulfilment', (token) => http('/api/admin/settings/fulfilment', { method: 'PUT', token, json: {} })],
    ['GET /api/admin/newsletter.csv', (token) => http('/api/admin/newsletter.csv', { token })],
    ['POST /api/admin/me/totp (enrol)', (token) => http('/api/admin/me/totp', { method: 'POST', token })],
    ['POST /api/admin/me/totp/confirm', (token) => http('/api/admin/me/totp/confirm', { method: 'POST', token, json: { otp: '123456' } })],
    ['DELETE /api/admin/me/totp (turn off)', (token) => http('/api/admin/me/totp', { method: 'DELETE', token, json: { otp: '123456' } })],
    ['POST /api/admin/orders/:id/refunds', (token) => http('/api/admin/orders/no-such-order/refunds', { method: 'POST', token, headers: { 'Idempotency-Key': `reauth-${RUN}` }, json: { amount: 1, reason: 'Stolen token', restock: [] } })],
    // Issue 55: where value is created, and where staff are locked out.
    ['PATCH /api/admin/staff/:u {disabled: true}', (token) => http(`/api/admin/staff/${target}`, { method: 'PATCH', token, json: { disabled: true } })],
    ['DELETE /api/admin/staff/:u', (token) => http(`/api/admin/staff/${target}`, { method: 'DELETE', token })],
    ['POST /api/admin/gift-cards (issue)', (token) => http('/api/admin/gift-cards', { method: 'POST', token, json: { amount: 1000 } })],
    ['POST /api/admin/gift-cards/:id/void', (token) => http(`/api/admin/gift-cards/${'0'.repeat(40)}/void`, { method: 'POST', token })],
    ['POST /api/admin/discounts (create)', (token) => http('/api/admin/discounts', { method: 'POST', token, json: { code: `STOLEN${RUN}`.toUpperCase().slice(0, 20), percentOff: 100 } })],
    ['PATCH /api/admin/discounts/:code', (token) => http('/api/admin/discounts/NOSUCHCODE', { method: 'PATCH', token, json: { paused: false } })],
  ];

  it.each(SENSITIVE)('%s with a proof older than 5 minutes: 401 REAUTH_REQUIRED, nothing changed', async (_name, send) => {
    await ageProofs(owner);
    const res = await expectUnchanged(() => send(session.token));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(REAUTH);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('the same token still does everything else (a display name, reads): only sensitive actions ask', async () => {
    await ageProofs(owner);
    expect((await http(`/api/admin/staff/${target}`, { method: 'PATCH', token: session.token, json: { displayName: 'Renamed Seller' } })).status).toBe(200);
    expect((await http('/api/admin/staff', { token: session.token })).status).toBe(200);
    expect((await http('/api/admin/settings', { token: session.token })).status).toBe(200);
  });

  it('a stolen token cannot enrol its own authenticator: without the password there is no proof, and each guess is throttled and audited', async () => {
    await ageProofs(owner);
    const wrong = await reauth(session.token, 'not-the-password-1');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid credentials' });
    const enrol = await http('/api/admin/me/totp', { method: 'POST', token: session.token });
    expect(enrol.body).toEqual(REAUTH);
    const stored = (await db().collection('admins').doc(owner).get()).data()!;
    expect(stored.totpPending).toBeUndefined();
    expect(stored.totpSecret).toBeUndefined();
    expect((await eventsOf(owner))[0]).toMatchObject({ action: 'staff.sign-in-failed', changes: { reason: { after: 'password' }, via: { after: 'reauth' } } });
  });

  it('re-entering the password proves the session again: the action goes through, and the proof is audited', async () => {
    await ageProofs(owner);
    expect((await http('/api/admin/settings', { method: 'PUT', token: session.token, json: { requireTotp: false } })).status).toBe(401);
    const ok = await reauth(session.token, PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Confirmed');
    expect(ok.body.validUntil).toBeGreaterThan(Date.now() + 4 * 60_000);
    expect((await http('/api/admin/settings', { method: 'PUT', token: session.token, json: { requireTotp: false } })).status).toBe(200);
    const [latest, before] = await eventsOf(owner);
    expect(latest).toMatchObject({ action: 'settings.update' });
    expect(before).toMatchObject({ action: 'staff.reauth', target: `admins/${owner}` });
  });

  it('a proof belongs to the session that made it: another token of the same person does not borrow it', async () => {
    const other = await tokenOf(owner);
    await ageProofs(owner);
    expect((await reauth(session.token, PASSWORD)).status).toBe(200);
    const res = await expectUnchanged(() => http('/api/admin/settings', { method: 'PUT', token: other.token, json: { requireTotp: false } }));
    expect(res.body).toEqual(REAUTH);
  });

  it('a role that may not act hears 403, not a request for its password', async () => {
    const username = await person('bookseller');
    const seller = await tokenOf(username);
    await ageProofs(username);
    const res = await expectUnchanged(() => http('/api/admin/newsletter.csv', { token: seller.token }));
    expect(res.status).toBe(403);
  });

  it('with two-factor sign-in on, the re-entry needs the code too, and a code is never accepted twice', async () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const username = await person('manager', { totpSecret: secret });
    await steadyClock();
    const { token } = await tokenOf(username, PASSWORD, totpCode(secret));
    await ageProofs(username);
    const noCode = await reauth(token, PASSWORD);
    expect(noCode.status).toBe(401);
    expect(noCode.body.code).toBe('OTP_REQUIRED');
    const spent = await reauth(token, PASSWORD, totpCode(secret)); // the sign-in used this step
    expect(spent.body.code).toBe('OTP_REQUIRED');
    await steadyClock();
    expect((await reauth(token, PASSWORD, totpCode(secret, Date.now() + 30_000))).status).toBe(200);
    expect((await http('/api/admin/settings/fulfilment', { token })).status).toBe(200);
  });

  it('re-entries are throttled like sign-ins: wrong passwords from invented addresses fill the username\'s ceiling, then 429 even for the right one', async () => {
    const username = await person('manager');
    const { token } = await tokenOf(username);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await reauth(token, `guess-${i}`, undefined, `203.0.113.${150 + i}`)).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
    const right = await reauth(token, PASSWORD, undefined, '203.0.113.170');
    expect(right.status).toBe(429);
    expect(right.body.message).toBe('Too many login attempts. Try again later.');
  });

  it('turning two-factor off is throttled like sign-in: wrong codes take the sign-in budgets, then 429', async () => {
    const secret = 'KRUGS4ZANFZSAYJAONSWG4TFOQQQ2345';
    const username = await person('bookseller', { totpSecret: secret });
    await steadyClock();
    const { token } = await tokenOf(username, PASSWORD, totpCode(secret));
    const off = (otp: string, from: string) => http('/api/admin/me/totp', { method: 'DELETE', token, headers: { 'X-Forwarded-For': from }, json: { otp } });
    const wrong = (i: number) => String((Number(totpCode(secret)) + 500_000 + i) % 1_000_000).padStart(6, '0');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await off(wrong(i), `203.0.113.${180 + i}`)).status);
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    await steadyClock();
    expect((await off(totpCode(secret, Date.now() + 30_000), '203.0.113.199')).status).toBe(429);
    expect((await db().collection('admins').doc(username).get()).data()?.totpSecret).toBe(secret);
    const failed = (await eventsOf(username)).filter((e) => e.action === 'staff.sign-in-failed');
    expect(failed).toHaveLength(10);
    expect(failed[0]).toMatchObject({ changes: { reason: { after: 'code' }, via: { after: 'totp-off' } } });
  });
});

describe('device cookies: one budget per username, void when credentials change', () => {
  it('cookies from many sign-ins share one budget: 10 wrong passwords across three cookies, then 429 with any of them', async () => {
    const username = await person('bookseller');
    const cookies = [(await tokenOf(username)).cookie, (await tokenOf(username)).cookie, (await tokenOf(username)).cookie];
    expect(new Set(cookies).size).toBe(3);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await signIn(username, `guess-${i}`, { cookie: cookies[i % 3] })).status);
    expect(statuses).toEqual(Array<number>(10).fill(401));
    for (const cookie of cookies) expect((await signIn(username, `guess-x`, { cookie })).status).toBe(429);
  });

  /** Fills the username's ceiling from invented addresses: from then on only a valid device cookie signs in. */
  async function spray(username: string) {
    for (let i = 0; i < 10; i++) expect((await signIn(username, `spray-${i}`, { from: `203.0.113.${20 + i}` })).status).toBe(401);
    expect((await signIn(username, PASSWORD, { from: '203.0.113.40' })).status).toBe(429);
  }

  const VOIDING: [string, (username: string) => Promise<void>, string][] = [
    ['a new password (the owner\'s Staff page)', async (u) => {
      expect((await http(`/api/admin/staff/${u}`, { method: 'PATCH', token: await adminToken(), json: { password: 'another-long-passphrase' } })).status).toBe(200);
    }, 'another-long-passphrase'],
    ['disabling the person (and enabling them again)', async (u) => {
      for (const disabled of [true, false]) expect((await http(`/api/admin/staff/${u}`, { method: 'PATCH', token: await adminToken(), json: { disabled } })).status).toBe(200);
    }, PASSWORD],
    ['turning two-factor sign-in on', async (u) => {
      const { token } = await tokenOf(u);
      await steadyClock();
      const { secret } = (await http('/api/admin/me/totp', { method: 'POST', token })).body;
      expect((await http('/api/admin/me/totp/confirm', { method: 'POST', token, json: { otp: totpCode(secret) } })).status).toBe(200);
      await db().collection('admins').doc(u).update({ totpSecret: FieldValue.delete() }); // back to password-only sign-in for the check below
    }, PASSWORD],
    ['an owner\'s two-factor reset', async (u) => {
      await db().collection('admins').doc(u).update({ totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
      expect((await http(`/api/admin/staff/${u}`, { method: 'PATCH', token: await adminToken(), json: { resetTotp: true } })).status).toBe(200);
    }, PASSWORD],
  ];

  it.each(VOIDING)('a cookie issued before %s no longer signs in past a spray', async (_name, change, password) => {
    const username = await person('bookseller');
    const { cookie } = await tokenOf(username);
    await change(username);
    await spray(username);
    // Before the change this browser would sign in here (hostile.serial.api.test.ts: 'twelve wrong passwords ...').
    const res = await signIn(username, password, { cookie, from: '198.51.100.72' });
    expect(res.status).toBe(429);
  });

  it('a cookie issued after the change does (the staff member signs in again where they are)', async () => {
    const username = await person('bookseller');
    await tokenOf(username);
    expect((await http(`/api/admin/staff/${username}`, { method: 'PATCH', token: await adminToken(), json: { password: 'another-long-passphrase' } })).status).toBe(200);
    const { cookie } = await tokenOf(username, 'another-long-passphrase');
    await spray(username);
    expect((await signIn(username, 'another-long-passphrase', { cookie })).status).toBe(200);
  });
});

describe('sign-ins are audit events', () => {
  it('a sign-in, a wrong password and a wrong code of existing staff are recorded with their address; made-up names are not', async () => {
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    const username = await person('manager', { totpSecret: secret });
    expect((await signIn(username, 'not-it-at-all', { from: '198.51.100.81' })).status).toBe(401);
    await steadyClock();
    const badCode = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect((await signIn(username, PASSWORD, { otp: badCode, from: '198.51.100.82' })).status).toBe(401);
    expect((await signIn(username, PASSWORD, { otp: totpCode(secret), from: '198.51.100.83' })).status).toBe(200);
    const events = await eventsOf(username);
    expect(events.map((e) => e.action)).toEqual(['staff.sign-in', 'staff.sign-in-failed', 'staff.sign-in-failed']);
    expect(events[0]).toMatchObject({ role: 'manager', target: `admins/${username}`, changes: { from: { after: '198.51.100.83' } } });
    expect(events[1]!.changes).toMatchObject({ reason: { after: 'code' }, from: { after: '198.51.100.82' } });
    expect(events[2]!.changes).toMatchObject({ reason: { after: 'password' }, from: { after: '198.51.100.81' } });
    const ghost = `ghost-${RUN}`;
    await expectUnchanged(() => signIn(ghost, 'whatever-1'));
    expect(await eventsOf(ghost)).toEqual([]);
  });
});

afterAll(async () => {
  // The demo owner's settings stay as the other files expect them.
  await db().collection('settings').doc('shop').set({ requireTotp: false }, { merge: true });
});
