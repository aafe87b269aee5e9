import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchanged, http, inboxFor, makeBooks, newCustomer, removeBooks, validOrder } from './helpers';

// The shop's own mail end to end (issue 36, decision 030): an order queues its mail document in the
// order's transaction; the official Firestore emulator fires the `sendMail` trigger in the Functions
// emulator (firebase-cli-firestore.cjs registers it); the function sends it over SMTP to the
// developer's inbox (scripts/lib/dev-inbox.ts, a real SMTP server) and records the delivery. And
// the dashboard's list of mail that failed: GET /api/admin/mail/failed.

const RUN = randomBytes(4).toString('hex');
const PASSWORD = 'a-long-staff-passphrase-for-mail';

/** Waits until `check` returns a value (the trigger runs on its own time), up to 30 s. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const deliveryOf = async (id: string) => (await db().collection('mail').doc(id).get()).data()?.delivery;

async function staffToken(role: 'bookseller' | 'manager'): Promise<string> {
  const username = `mail-${role}-${RUN}`;
  const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: `Mail ${role}`, role, password: PASSWORD } });
  if (made.status !== 201 && made.status !== 409) throw new Error(`staff ${username}: ${made.status} ${JSON.stringify(made.body)}`);
  return (await http('/api/auth/admin', { method: 'POST', json: { username, password: PASSWORD } })).body.token;
}

describe('order mail through the real trigger and a real SMTP exchange', () => {
  it('an order placed over HTTP reaches the SMTP server (its recipient and subject) and its document says SUCCESS after 1 try', async () => {
    const customer = await newCustomer('mailed');
    const books = await makeBooks(1, 3);
    try {
      const placed = await http('/api/orders', { method: 'POST', token: customer.token, json: validOrder(customer.email, books), headers: { 'Idempotency-Key': `mail-${RUN}` } });
      expect(placed.status).toBe(201);
      const orderId = placed.body._id as string;
      const short = orderId.slice(0, 8).toUpperCase();
      const received = await eventually('the order mail in the inbox', async () => (await inboxFor(customer.email)).find((m) => m.subject.includes(short)));
      expect(received.to).toEqual([customer.email]);
      expect(received.subject).toBe(`We have received your order (order ${short})`);
      expect(received.text).toContain(books[0]!.title);
      const delivery = await eventually('SUCCESS on the mail document', async () => {
        const d = await deliveryOf(`${orderId}-placed`);
        return d?.state === 'SUCCESS' ? d : undefined;
      });
      expect(delivery).toMatchObject({ state: 'SUCCESS', attempts: 1, error: null, info: { accepted: [customer.email] } });
      expect((await inboxFor(customer.email)).filter((m) => m.subject.includes(short))).toHaveLength(1);
    } finally {
      await removeBooks(books);
    }
  });
});

describe('GET /api/admin/mail/failed', () => {
  /** Documents the trigger cannot send (no address): it marks each ERROR, as it would a refused mail. */
  async function failedMails(count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, (_, i) => `failed-${RUN}-${i}`);
    for (const id of ids) await db().collection('mail').doc(id).create({ message: { subject: `Undeliverable ${id}`, text: 'x' } });
    for (const id of ids) await eventually(`ERROR on ${id}`, async () => ((await deliveryOf(id))?.state === 'ERROR' ? true : undefined));
    return ids;
  }

  it('lists failed mail to the owner and a manager, the latest failure first, paged with a cursor', async () => {
    const ids = await failedMails(3);
    const manager = await staffToken('manager');
    for (const token of [await adminToken(), manager]) {
      const seen: { id: string; failedAt: string }[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: { mail: { id: string; failedAt: string; attempts: number; error: string; subject: string }[]; nextCursor: string | null } } =
          await http(`/api/admin/mail/failed?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token });
        expect(res.status).toBe(200);
        expect(res.body.mail.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.mail);
        for (const mail of res.body.mail.filter((m) => ids.includes(m.id))) {
          expect(mail).toMatchObject({ attempts: 0, subject: `Undeliverable ${mail.id}` });
          expect(mail.error).toContain('needs `to`');
        }
        cursor = res.body.nextCursor;
      } while (cursor && !ids.every((id) => seen.some((m) => m.id === id)));
      expect(ids.every((id) => seen.some((m) => m.id === id))).toBe(true);
      expect(new Set(seen.map((m) => m.id)).size).toBe(seen.length); // no mail on two pages
      const times = seen.map((m) => m.failedAt);
      expect([...times].sort().reverse()).toEqual(times);
    }
  });

  it('401 without a staff token, 403 for a bookseller; a bad cursor or limit is 400 with its message; nothing changes', async () => {
    const bookseller = await staffToken('bookseller');
    await expectUnchanged(async () => {
      expect((await http('/api/admin/mail/failed')).status).toBe(401);
      expect((await http('/api/admin/mail/failed', { token: bookseller })).status).toBe(403);
      const admin = await adminToken();
      const badCursor = await http('/api/admin/mail/failed?cursor=bm90LWEtY3Vyc29y', { token: admin });
      expect(badCursor.status).toBe(400);
      expect(badCursor.body.message).toBe('cursor is not valid');
      const badLimit = await http('/api/admin/mail/failed?limit=500', { token: admin });
      expect(badLimit.status).toBe(400);
      expect(badLimit.body.message).toBe('limit is at most 100');
      expect((await http('/api/admin/mail/failed?state=SUCCESS', { token: admin })).status).toBe(400);
    });
  });
});
