import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptMailId } from '../src/sales/receipts/receipts.repo';
import { adminToken, base, db, expectUnchangedIn, http, makeBooks, removeBooks, type TestBook } from './helpers';
import { deliveredOnce, MAIL_TEST_TIMEOUT_MS, staffToken } from './mail-helpers';
import { sdk } from './stripe-helpers';

// Receipts of counter sales (issue 57) over HTTP, through Hosting to the function, on the real
// emulators: the ESC/POS bytes and the printable page of a sale (the first print the original,
// every later one a COPY, counted on the sale), the receipt mailed through the shop's mail queue to
// the developer's inbox, and bad requests refused with nothing printed or queued.

const ESC_AT = Buffer.from([0x1b, 0x40]);
const DRAWER_KICK = Buffer.from([0x1b, 0x70]);

type Book = TestBook & { isbn: string };
const made: TestBook[] = [];
afterAll(async () => removeBooks(made));

let bookseller: string;
let book: Book;
beforeAll(async () => {
  bookseller = await staffToken('bookseller');
  book = ((await makeBooks(1, 20, 1250, { isbn: true })) as Book[])[0]!;
  made.push(book);
});

const TILL = `till-rc-${Date.now().toString(36)}`;

async function sell(payment: Record<string, unknown>, lines: unknown[] = [{ isbn: book.isbn, quantity: 2 }]): Promise<string> {
  const saleId = randomUUID();
  const res = await http('/api/admin/sales', { method: 'POST', token: bookseller, json: { saleId, tillId: TILL, lines, payment } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return saleId;
}

/** A card sale paid on the till's reader (issue 57: the stand-in's simulated reader takes a test card). */
async function sellByCard(): Promise<string> {
  const reader = await http('/api/admin/readers', { method: 'POST', token: await adminToken(), json: { registrationCode: 'simulated-wpe', label: `Receipts ${randomUUID().slice(0, 8)}`, tillId: TILL } });
  expect(reader.status).toBe(201);
  const saleId = randomUUID();
  const res = await http('/api/admin/sales', { method: 'POST', token: bookseller, json: { saleId, tillId: TILL, lines: [{ isbn: book.isbn, quantity: 2 }], payment: { method: 'card_terminal', readerId: reader.body.reader._id } } });
  expect(res.status).toBe(202);
  await sdk().testHelpers.terminal.readers.presentPaymentMethod(reader.body.reader.stripeReaderId, { card_present: { number: '4242424242424242' } });
  for (let i = 0; i < 300 && (await saleDoc(saleId).get()).get('status') !== 'complete'; i++) await new Promise((r) => setTimeout(r, 100));
  expect((await saleDoc(saleId).get()).get('status')).toBe('complete');
  return saleId;
}

/** A receipt's raw answer (the bytes are not text: http() would decode them). */
async function receipt(saleId: string, format: string, token: string | null = bookseller) {
  const res = await fetch(`${base()}/api/admin/sales/${saleId}/receipt?format=${format}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type') ?? '', copy: res.headers.get('x-receipt-copy'), bytes: Buffer.from(await res.arrayBuffer()) };
}
const printsOf = async (saleId: string) => (await db().collection('sales').doc(saleId).get()).data()?.receiptPrints;
const saleDoc = (saleId: string) => db().collection('sales').doc(saleId);

describe('GET /api/admin/sales/:id/receipt', () => {
  it('a cash sale: ESC/POS bytes, initialised, with the sale, the change and the drawer kick; a reprint says COPY and opens no drawer', async () => {
    const saleId = await sell({ method: 'cash', tendered: '30.00' });
    const first = await receipt(saleId, 'escpos');
    expect(first.status).toBe(200);
    expect(first.type).toMatch(/^application\/octet-stream/);
    expect(first.copy).toBe('false');
    expect(first.bytes.subarray(0, 2).equals(ESC_AT)).toBe(true);
    expect(first.bytes.indexOf(DRAWER_KICK)).toBeGreaterThan(0);
    const text = first.bytes.toString('latin1');
    for (const part of [book.title.slice(0, 20), '2 x $12.50', '$25.00', 'Paid by Cash', '$30.00', '$5.00', saleId]) expect(text).toContain(part);
    expect(text).not.toContain('COPY');
    expect(await printsOf(saleId)).toBe(1);

    const again = await receipt(saleId, 'escpos');
    expect(again.status).toBe(200);
    expect(again.copy).toBe('true');
    expect(again.bytes.toString('latin1')).toContain('COPY');
    expect(again.bytes.indexOf(DRAWER_KICK)).toBe(-1);
    expect(await printsOf(saleId)).toBe(2);
  });

  it('a card sale: no drawer kick; the printable page is a COPY once a receipt was printed', async () => {
    const saleId = await sellByCard();
    const bytes = await receipt(saleId, 'escpos');
    expect(bytes.status).toBe(200);
    expect(bytes.bytes.indexOf(DRAWER_KICK)).toBe(-1);
    expect(bytes.bytes.toString('latin1')).toContain('Paid by Card on Terminal');

    const page = await receipt(saleId, 'html');
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    const html = page.bytes.toString('utf8');
    expect(html).toContain('size: 80mm auto');
    expect(html).toContain('<strong>COPY</strong>');
    expect(html).toContain('Paid by Card on Terminal');
    expect(html).toContain(saleId);
  });

  it("a gift card's full code on the original only (the server's code, made again for the receipt); a COPY shows its last 4", async () => {
    const saleId = await sell({ method: 'cash' }, [{ kind: 'gift_card', amount: '15.00' }]);
    const code = (await http(`/api/admin/sales/${saleId}`, { token: bookseller })).body.sale.lines[0].giftCard as { last4: string };
    const original = (await receipt(saleId, 'html')).bytes.toString('utf8');
    const full = /([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(original)?.[1];
    expect(full, 'the original shows the full code').toBeDefined();
    expect(full!.endsWith(code.last4)).toBe(true);
    const copy = (await receipt(saleId, 'html')).bytes.toString('utf8');
    expect(copy).toContain('<strong>COPY</strong>');
    expect(copy).not.toContain(full!);
    expect(copy).toContain(code.last4);
  });

  it('two prints at once: exactly one original', async () => {
    const saleId = await sell({ method: 'cash' });
    const both = await Promise.all([receipt(saleId, 'html'), receipt(saleId, 'escpos')]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => r.copy).sort()).toEqual(['false', 'true']);
    expect(await printsOf(saleId)).toBe(2);
  });

  it('refuses a bad format (400 naming it), an unknown or malformed sale (404) and a caller without a staff token (401), printing nothing', async () => {
    const saleId = await sell({ method: 'cash' });
    await expectUnchangedIn([saleDoc(saleId)], async () => {
      const missing = await http(`/api/admin/sales/${saleId}/receipt`, { token: bookseller });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toMatch(/format/);
      const pdf = await http(`/api/admin/sales/${saleId}/receipt?format=pdf`, { token: bookseller });
      expect(pdf.status).toBe(400);
      expect(pdf.body.message).toBe('format must be escpos or html');
      expect((await receipt(saleId, 'escpos', null)).status).toBe(401);
    });
    expect(await printsOf(saleId)).toBeUndefined();
    const unknown = await http(`/api/admin/sales/${randomUUID()}/receipt?format=escpos`, { token: bookseller });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Sale not found');
    expect((await http('/api/admin/sales/not-a-sale/receipt?format=html', { token: bookseller })).status).toBe(404);
  });
});

describe('POST /api/admin/sales/:id/email', () => {
  it('mails the receipt through the mail queue (202), once per address however often it is asked', { timeout: MAIL_TEST_TIMEOUT_MS }, async () => {
    const saleId = await sell({ method: 'cash', tendered: '50' });
    const to = `receipt-${randomUUID().slice(0, 8)}@example.com`;
    const res = await http(`/api/admin/sales/${saleId}/email`, { method: 'POST', token: bookseller, json: { email: to.toUpperCase() } });
    expect(res.status).toBe(202);
    expect(res.body.message).toContain(to);
    const again = await http(`/api/admin/sales/${saleId}/email`, { method: 'POST', token: bookseller, json: { email: to } });
    expect(again.status).toBe(202);

    const mail = await deliveredOnce(to, 'Your receipt from', receiptMailId(saleId, to));
    expect(mail.text).toContain('2 x $12.50: $25.00');
    expect(mail.text).toContain('Change: $25.00');
    expect(mail.text).toContain(saleId);
    expect(mail.html).toContain('<svg');
    // Mailing is no print: the first printed receipt is still the original.
    expect(await printsOf(saleId)).toBeUndefined();
  });

  it('refuses a bad address (400 naming email) and an unknown sale (404), queueing nothing', async () => {
    const saleId = await sell({ method: 'cash' });
    const mails = db().collection('mail').where('to', '==', 'not-an-address');
    await expectUnchangedIn([saleDoc(saleId), mails], async () => {
      const bad = await http(`/api/admin/sales/${saleId}/email`, { method: 'POST', token: bookseller, json: { email: 'not-an-address' } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/email/i);
      const none = await http(`/api/admin/sales/${saleId}/email`, { method: 'POST', token: bookseller, json: {} });
      expect(none.status).toBe(400);
      expect(none.body.message).toMatch(/email/i);
    });
    const unknownId = randomUUID();
    const unknown = await http(`/api/admin/sales/${unknownId}/email`, { method: 'POST', token: bookseller, json: { email: 'someone@example.com' } });
    expect(unknown.status).toBe(404);
    expect((await db().collection('mail').doc(receiptMailId(unknownId, 'someone@example.com')).get()).exists).toBe(false);
  });
});
