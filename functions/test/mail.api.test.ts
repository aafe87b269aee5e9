import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { adminToken, db, http, inboxFor, makeBooks, newBook, newCustomer, removeBooks, validOrder } from './helpers';
import { deliveredOnce, deliveryOf, eventually, MAIL_TEST_TIMEOUT_MS, staffToken } from './mail-helpers';

vi.setConfig({ testTimeout: MAIL_TEST_TIMEOUT_MS }); // mail waits behind the run's backlog (mail-helpers.ts)

// The shop's own mail end to end (issue 36, decision 037): an order queues its mail document in the
// order's transaction; the official Firestore emulator fires the `sendMail` trigger in the Functions
// emulator (firebase-cli-firestore.cjs registers it); the function sends it over SMTP to the
// developer's inbox (scripts/lib/dev-inbox.ts, a real SMTP server) and records the delivery. And
// the dashboard's list of mail that failed: GET /api/admin/mail/failed.

const RUN = randomBytes(4).toString('hex');

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

// Every writer of `mail` is sent by the one function: nothing queues mail that the suite leaves
// unsent. Those that count in the shop's figures (a collected pickup order, a card payment and a
// refund) are in mail.serial.api.test.ts.
describe('every mail the shop queues goes out through sendMail to the inbox', () => {
  it('a back-in-stock alert and a newsletter confirmation', async () => {
    const [book] = await makeBooks(1, 0);
    try {
      const email = `alert-mail-${RUN}@example.com`;
      const from = { 'X-Forwarded-For': `10.36.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
      expect((await http('/api/stock-alerts', { method: 'POST', json: { bookId: book!._id, email }, headers: from })).status).toBe(202);
      const restock = newBook({ title: book!.title, description: 'A book the API tests order.', category: 'fiction', trending: false, coverImage: 'book-1', oldPrice: book!.newPrice, newPrice: book!.newPrice, stock: 2 });
      expect((await http(`/api/books/edit/${book!._id}`, { method: 'PUT', token: await adminToken(), json: restock })).status).toBe(200);
      const alert = await deliveredOnce(email, `Back in stock: ${book!.title}`);
      expect(alert.text).toContain(`/books/${book!._id}`);

      const reader = `newsletter-mail-${RUN}@example.com`;
      expect((await http('/api/newsletter', { method: 'POST', json: { email: reader }, headers: from })).status).toBe(202);
      const confirm = await deliveredOnce(reader, 'Confirm your subscription');
      expect(confirm.text).toContain('/newsletter/confirm?token=');
    } finally {
      await removeBooks([book!]);
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
});
