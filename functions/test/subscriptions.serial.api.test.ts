import { MAIL_LINK_INVALID, NEWSLETTER_REQUESTED, STOCK_ALERT_REQUESTED, toCsv } from '@bookstore/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { ALERTS_PER_ADDRESS, ALERTS_PER_IP, NEWSLETTER_PER_ADDRESS, NEWSLETTER_PER_IP } from '../src/subscriptions/subscriptions.handlers';
import { SHOP_URL } from '../../scripts/lib/env';
import { adminToken, db, expectUnchanged, http, makeBooks, newBook, newCustomer, removeBooks, stockOf, validOrder, type TestBook } from './helpers';

// Issue 28 over HTTP through Hosting: back-in-stock alerts (exactly one mail per subscriber however
// the restock comes and however often), the newsletter's double opt-in and its export.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
let seq = 0;
const address = (prefix: string) => `${prefix}-${RUN}-${(seq += 1)}@example.com`;
/** Each test its own client address (the emulator takes X-Forwarded-For's last entry), so per-IP limits do not cross tests. */
let ipSeq = 0;
const ip = () => `10.28.${Math.floor(Math.random() * 200)}.${(ipSeq += 1) % 250}`;

const made: TestBook[] = [];
async function soldOutBook(): Promise<TestBook> {
  const [book] = await makeBooks(1, 0);
  made.push(book!);
  return book!;
}
afterAll(async () => {
  await removeBooks(made);
  const alerts = await db().collection('stockAlerts').where('bookId', 'in', made.slice(0, 30).map((b) => b._id)).get();
  await Promise.all(alerts.docs.map((d) => d.ref.delete()));
});

const alertFor = (bookId: string, email: string, from = ip()) =>
  http('/api/stock-alerts', { method: 'POST', json: { bookId, email }, headers: { 'X-Forwarded-For': from } });

/** The full edit body of a book made by makeBooks, with its stock. */
const editBody = (book: TestBook, stock: number) =>
  newBook({ title: book.title, description: 'A book the API tests order.', category: 'fiction', trending: false, coverImage: 'book-1', oldPrice: book.newPrice, newPrice: book.newPrice, stock });

async function mailsTo(emails: string[]) {
  const snap = await db().collection('mail').where('to', 'in', emails).get();
  return snap.docs.map((d) => ({ id: d.id, ...(d.data() as { to: string; message: { subject: string; text: string; html: string } }) }));
}
const waitingFor = async (bookId: string) => (await db().collection('stockAlerts').where('bookId', '==', bookId).get()).size;
const linkIn = (text: string, path: string) => {
  const match = new RegExp(`https?://[^\\s]+${path.replace(/\//g, '\\/')}\\?token=([A-Za-z0-9_.%-]+)`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return { url: match[0], token: decodeURIComponent(match[1]!) };
};

describe('back-in-stock alerts', () => {
  it('a book restocked twice (and raced) with 3 subscribers queues exactly 3 mails, one each, and clears them', async () => {
    const book = await soldOutBook();
    const emails = [address('wait-a'), address('wait-b'), address('wait-c')];
    for (const email of emails) {
      const res = await alertFor(book._id, email);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: STOCK_ALERT_REQUESTED });
    }
    // The same address again: the same answer, still one subscription.
    expect((await alertFor(book._id, emails[0]!.toUpperCase())).status).toBe(202);
    expect(await waitingFor(book._id)).toBe(3);
    const admin = await adminToken();
    expect((await http(`/api/admin/stock-alerts/${book._id}`, { token: admin })).body).toEqual({ bookId: book._id, waiting: 3 });

    // Restock: two identical edits at once (a double click, a retried request), then the same again.
    const [first, second] = await Promise.all([
      http(`/api/books/edit/${book._id}`, { method: 'PUT', token: admin, json: editBody(book, 5) }),
      http(`/api/books/edit/${book._id}`, { method: 'PUT', token: admin, json: editBody(book, 5) }),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await http(`/api/books/edit/${book._id}`, { method: 'PUT', token: admin, json: editBody(book, 7) })).status).toBe(200);
    // Sold out and restocked again: the subscriptions were cleared, nobody is mailed twice.
    expect((await http(`/api/books/edit/${book._id}`, { method: 'PUT', token: admin, json: editBody(book, 0) })).status).toBe(200);
    expect((await http(`/api/books/edit/${book._id}`, { method: 'PUT', token: admin, json: editBody(book, 3) })).status).toBe(200);

    const mails = await mailsTo(emails);
    expect(mails).toHaveLength(3);
    expect(mails.map((m) => m.to).sort()).toEqual([...emails].sort());
    for (const m of mails) {
      expect(m.id).toMatch(new RegExp(`^stock-alert-${book._id}_`));
      expect(m.message.subject).toBe(`Back in stock: ${book.title}`);
      expect(m.message.text).toContain(`/books/${book._id}`);
      const unsubscribe = linkIn(m.message.text, '/stock-alerts/unsubscribe').url;
      expect(unsubscribe.slice(0, SHOP_URL.length + 1)).toBe(`${SHOP_URL}/`); // the shop's origin in this port slot
      expect(m.message.html).toContain('/stock-alerts/unsubscribe?token=');
    }
    expect(await waitingFor(book._id)).toBe(0);
    expect((await http(`/api/admin/stock-alerts/${book._id}`, { token: admin })).body.waiting).toBe(0);
  });

  it("a cancelled order's copy back on a sold-out book mails its subscriber once", async () => {
    const [book] = await makeBooks(1, 1);
    made.push(book!);
    const customer = await newCustomer('alert-cancel');
    const placed = await http('/api/orders', { method: 'POST', token: customer.token, json: validOrder(customer.email, [book!]) });
    expect(placed.status).toBe(201);
    expect(await stockOf(book!._id)).toBe(0);
    const email = address('wait-cancel');
    expect((await alertFor(book!._id, email)).status).toBe(202);
    const cancelled = await http(`/api/orders/${placed.body._id}/cancel`, { method: 'POST', token: customer.token });
    expect(cancelled.status).toBe(200);
    expect(await stockOf(book!._id)).toBe(1);
    expect((await mailsTo([email])).map((m) => m.message.subject)).toEqual([`Back in stock: ${book!.title}`]);
    expect(await waitingFor(book!._id)).toBe(0);
  });

  it('an import that restocks a sold-out book mails its subscriber once, and again nothing on a re-import', async () => {
    const book = await soldOutBook();
    const email = address('wait-import');
    expect((await alertFor(book._id, email)).status).toBe(202);
    const csv = toCsv([
      ['id', 'title', 'description', 'category', 'oldPrice', 'newPrice', 'stock', 'coverImage'],
      [book._id, book.title, 'A book the API tests order.', 'fiction', String(book.newPrice), String(book.newPrice), '4', 'book-1'],
    ]);
    for (let i = 0; i < 2; i++) {
      const res = await http('/api/books/import', { method: 'POST', body: csv, headers: { 'Content-Type': 'text/csv' }, token: await adminToken() });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await stockOf(book._id)).toBe(4);
    expect(await mailsTo([email])).toHaveLength(1);
    expect(await waitingFor(book._id)).toBe(0);
  });

  it("Manage Books' bulk stock change on two sold-out books mails each one's subscribers once, and a repeat nothing more", async () => {
    const books = [await soldOutBook(), await soldOutBook()];
    const emails = [address('wait-bulk-a'), address('wait-bulk-b'), address('wait-bulk-c')];
    expect((await alertFor(books[0]!._id, emails[0]!)).status).toBe(202);
    expect((await alertFor(books[0]!._id, emails[1]!)).status).toBe(202);
    expect((await alertFor(books[1]!._id, emails[2]!)).status).toBe(202);
    for (let i = 0; i < 2; i++) {
      const res = await http('/api/admin/books/bulk', { method: 'POST', token: await adminToken(), json: { action: 'stock', ids: books.map((b) => b._id), stock: 6 } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect((await mailsTo(emails)).map((m) => m.to).sort()).toEqual([...emails].sort());
    expect(await waitingFor(books[0]!._id)).toBe(0);
    expect(await waitingFor(books[1]!._id)).toBe(0);
  });

  it("a signed-in customer subscribes with one click, to the account's own address", async () => {
    const book = await soldOutBook();
    const customer = await newCustomer('alert-signed-in');
    const res = await http('/api/stock-alerts', { method: 'POST', token: customer.token, json: { bookId: book._id, email: 'someone-else@example.com' } });
    expect(res.status).toBe(202);
    const [alert] = (await db().collection('stockAlerts').where('bookId', '==', book._id).get()).docs.map((d) => d.data());
    expect(alert).toMatchObject({ email: customer.email.toLowerCase(), uid: customer.uid });
  });

  it('refuses a book in stock (409), an unknown book (404), a bad or missing address (400) and a bad token (401), storing nothing', async () => {
    const [inStock] = await makeBooks(1, 2);
    made.push(inStock!);
    const book = await soldOutBook();
    const cases: [Promise<unknown> | (() => Promise<{ status: number; body: { message: string; code?: string } }>), number, RegExp][] = [
      [() => alertFor(inStock!._id, address('x')), 409, /in stock/],
      [() => alertFor('no-such-book-28', address('x')), 404, /Book not found/],
      [() => alertFor('../etc', address('x')), 400, /Book id is not valid/],
      [() => alertFor(book._id, 'not-an-address'), 400, /Email is not valid/],
      [() => http('/api/stock-alerts', { method: 'POST', json: { bookId: book._id }, headers: { 'X-Forwarded-For': ip() } }), 400, /Email is required/],
      [() => http('/api/stock-alerts', { method: 'POST', token: 'garbage', json: { bookId: book._id } }), 401, /session/],
      [() => http('/api/stock-alerts', { method: 'POST', body: 'bookId=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 415, /application\/json/],
    ];
    for (const [send, status, message] of cases) {
      const res = await expectUnchanged(async () => {
        const r = await (send as () => Promise<{ status: number; body: { message: string } }>)();
        expect(await waitingFor(book._id)).toBe(0);
        return r;
      });
      expect(res.status).toBe(status);
      expect(res.body.message).toMatch(message);
    }
    expect((await alertFor(inStock!._id, address('x'))).body.code).toBe('IN_STOCK');
  });

  it(`limits one client address to ${ALERTS_PER_IP} sign-ups per window (429 Retry-After), and one email address to ${ALERTS_PER_ADDRESS} stored`, async () => {
    const books = await makeBooks(ALERTS_PER_ADDRESS + 1, 0);
    made.push(...books);
    const from = ip();
    for (let i = 0; i < ALERTS_PER_IP; i++) expect((await alertFor(books[i % books.length]!._id, address('ip'), from)).status).toBe(202);
    const refused = await alertFor(books[0]!._id, address('ip'), from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // One address, many books, many networks: the same answer every time, but only the first ALERTS_PER_ADDRESS are stored.
    const email = address('addr');
    for (const book of books) expect((await alertFor(book._id, email)).status).toBe(202);
    const stored = await db().collection('stockAlerts').where('email', '==', email).get();
    expect(stored.size).toBe(ALERTS_PER_ADDRESS);
  });

  it("the mail's unsubscribe link stops back-in-stock mail to that address (later sign-ups answered alike, stored nowhere)", async () => {
    const book = await soldOutBook();
    const email = address('stop');
    expect((await alertFor(book._id, email)).status).toBe(202);
    expect((await http(`/api/books/edit/${book._id}`, { method: 'PUT', token: await adminToken(), json: editBody(book, 2) })).status).toBe(200);
    const [mail] = await mailsTo([email]);
    const { token } = linkIn(mail!.message.text, '/stock-alerts/unsubscribe');
    const res = await http('/api/unsubscribe', { method: 'POST', json: { token } });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/not send back-in-stock emails/);
    const other = await soldOutBook();
    expect((await alertFor(other._id, email)).status).toBe(202);
    expect(await waitingFor(other._id)).toBe(0);
    // A forged token is refused, and changes nothing.
    const forged = await expectUnchanged(() => http('/api/unsubscribe', { method: 'POST', json: { token: `${token.split('.')[0]}.${'A'.repeat(43)}` } }));
    expect(forged.status).toBe(400);
    expect(forged.body.message).toBe(MAIL_LINK_INVALID);
  });
});

describe('newsletter (double opt-in)', () => {
  const subscribe = (email: string, from = ip()) => http('/api/newsletter', { method: 'POST', json: { email }, headers: { 'X-Forwarded-For': from } });
  const entry = async (email: string) => (await db().collection('newsletter').where('email', '==', email.toLowerCase()).get()).docs[0]?.data();
  const confirmMails = async (email: string) => (await mailsTo([email.toLowerCase()])).filter((m) => m.id.startsWith('newsletter-confirm-'));

  it('stores a pending address, mails a signed link; the link confirms it; it is exported; unsubscribing removes it', async () => {
    const email = address('news');
    const res = await subscribe(email);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: NEWSLETTER_REQUESTED });
    expect(await entry(email)).toMatchObject({ email, status: 'pending' });
    const [mail] = await confirmMails(email);
    expect(mail!.message.subject).toMatch(/Confirm your subscription/);
    const confirm = linkIn(mail!.message.text, '/newsletter/confirm');
    const confirmAt = `${SHOP_URL}/newsletter/confirm?token=`; // the shop's origin in this port slot
    expect(confirm.url.slice(0, confirmAt.length)).toBe(confirmAt);
    const unsubscribeLink = linkIn(mail!.message.text, '/newsletter/unsubscribe');

    // Not exported while pending.
    const admin = await adminToken();
    expect((await http('/api/admin/newsletter.csv', { token: admin })).body).not.toContain(email);

    const confirmed = await http('/api/newsletter/confirm', { method: 'POST', json: { token: confirm.token } });
    expect(confirmed.status).toBe(200);
    expect((await entry(email))!.status).toBe('confirmed');
    expect((await http('/api/newsletter/confirm', { method: 'POST', json: { token: confirm.token } })).status).toBe(200); // twice: still fine

    const csv = await http<string>('/api/admin/newsletter.csv', { token: admin });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('cache-control')).toMatch(/no-store/);
    expect(csv.body.split('\r\n')[0]).toBe('email,confirmedAt');
    expect(csv.body).toContain(`\r\n${email},`);

    // Signing up again once confirmed: the same answer, no new mail.
    expect((await subscribe(email)).body).toEqual({ message: NEWSLETTER_REQUESTED });
    expect(await confirmMails(email)).toHaveLength(1);

    const gone = await http('/api/unsubscribe', { method: 'POST', json: { token: unsubscribeLink.token } });
    expect(gone.status).toBe(200);
    expect(await entry(email)).toBeUndefined();
    // The old confirmation link cannot bring it back.
    const stale = await http('/api/newsletter/confirm', { method: 'POST', json: { token: confirm.token } });
    expect(stale.status).toBe(400);
    expect(stale.body.message).toBe(MAIL_LINK_INVALID);
    expect(await entry(email)).toBeUndefined();
  });

  it('a link of one purpose does nothing for another, and forged or malformed tokens are 400 with nothing changed', async () => {
    const email = address('purpose');
    await subscribe(email);
    const [mail] = await confirmMails(email);
    const confirm = linkIn(mail!.message.text, '/newsletter/confirm').token;
    const unsubscribe = linkIn(mail!.message.text, '/newsletter/unsubscribe').token;
    for (const [path, token] of [
      ['/api/unsubscribe', confirm],
      ['/api/newsletter/confirm', unsubscribe],
      ['/api/newsletter/confirm', `${confirm.split('.')[0]}.${'B'.repeat(43)}`],
      ['/api/newsletter/confirm', 'not a token'],
      ['/api/newsletter/confirm', ''],
    ] as const) {
      const res = await expectUnchanged(() => http(path, { method: 'POST', json: { token } }));
      expect(res.status, `${path} ${token}`).toBe(400);
    }
    expect((await entry(email))!.status).toBe('pending');
  });

  it(`no enumeration and limits: one address gets at most ${NEWSLETTER_PER_ADDRESS} confirmation mails a day, one client ${NEWSLETTER_PER_IP} sign-ups per window`, async () => {
    const email = address('limit');
    for (let i = 0; i < NEWSLETTER_PER_ADDRESS + 2; i++) expect((await subscribe(email)).body).toEqual({ message: NEWSLETTER_REQUESTED });
    expect(await confirmMails(email)).toHaveLength(NEWSLETTER_PER_ADDRESS);
    const from = ip();
    for (let i = 0; i < NEWSLETTER_PER_IP; i++) expect((await subscribe(address('ip'), from)).status).toBe(202);
    const refused = await subscribe(address('ip'), from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const bad = await expectUnchanged(() => subscribe('nobody'));
    expect(bad.status).toBe(400);
    expect(bad.body.details.email).toBeDefined();
  });

  it('the export is for owners and managers only, pages through every confirmed address and neutralises formulas', async () => {
    expect((await http('/api/admin/newsletter.csv')).status).toBe(401);
    const customer = await newCustomer('csv');
    expect((await http('/api/admin/newsletter.csv', { token: customer.token })).status).toBe(401);
    // A bookseller may not (the policy table: owner and manager).
    const username = `csv-seller-${RUN}`;
    const password = 'margins-and-footnotes-9';
    const created = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: 'CSV Seller', role: 'bookseller', password } });
    expect(created.status).toBe(201);
    const seller = (await http('/api/auth/admin', { method: 'POST', json: { username, password } })).body.token as string;
    const refused = await http('/api/admin/newsletter.csv', { token: seller });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your role does not allow this');
    await http(`/api/admin/staff/${username}`, { method: 'DELETE', token: await adminToken() });

    // 1,100 confirmed addresses (more than two export pages of 500), one of them formula-like.
    const ids = Array.from({ length: 1100 }, (_, i) => `csv-${RUN}-${String(i).padStart(4, '0')}`);
    const emailOf = (i: number) => (i === 0 ? `+sum-${RUN}@example.com` : `bulk-${RUN}-${i}@example.com`);
    for (let start = 0; start < ids.length; start += 400) {
      const batch = db().batch();
      ids.slice(start, start + 400).forEach((id, j) =>
        batch.set(db().collection('newsletter').doc(id), { email: emailOf(start + j), status: 'confirmed', nonce: 'n', requestedAt: '2026-11-01T00:00:00.000Z', confirmedAt: '2026-11-02T00:00:00.000Z' }),
      );
      await batch.commit();
    }
    try {
      const csv = await http<string>('/api/admin/newsletter.csv', { token: await adminToken() });
      expect(csv.status).toBe(200);
      const lines = csv.body.split('\r\n');
      expect(lines.filter((l) => l.startsWith(`bulk-${RUN}-`))).toHaveLength(1099);
      expect(csv.body).toContain(`'+sum-${RUN}@example.com,2026-11-02T00:00:00.000Z`);
      expect(new Set(lines).size).toBe(lines.length); // no page twice
    } finally {
      for (let start = 0; start < ids.length; start += 400) {
        const batch = db().batch();
        ids.slice(start, start + 400).forEach((id) => batch.delete(db().collection('newsletter').doc(id)));
        await batch.commit();
      }
    }
  });
});
