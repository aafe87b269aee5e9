import { readFileSync, writeFileSync } from 'node:fs';
import type { Sale } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { escposReceipt, htmlReceipt, receiptContent, receiptMail, shopNameOf, type ReceiptShop } from './receipt';

// The receipt builder is a pure function of (sale, shop, options): the ESC/POS bytes of a cash and a
// card receipt are compared byte for byte with saved reference files. After a deliberate change of
// layout, regenerate them with `UPDATE_RECEIPT_FIXTURES=1 npx vitest run --project unit functions/src/sales/receipts`
// and look at the difference (`cmp -l`, or print them) before committing.

const FIXTURES = new URL('../../../test/fixtures/receipts/', import.meta.url);
const SHOP: ReceiptShop = { name: 'Bookstore', address: '12 Quay Street\nHarbour Town 4000' };

const by = { username: 'ada', name: 'Ada' };
const cashSale: Sale = {
  _id: '0b6f3c2e-4a1d-4e8f-9c3b-2d5e6f7a8b9c',
  tillId: 'till-1',
  lines: [
    { bookId: 'book-1', isbn: '9780141439518', title: 'Pride and Prejudice', quantity: 2, unitPrice: 12.5, lineTotal: 25 },
    { bookId: 'book-2', isbn: '9780140449136', title: 'Crime and Punishment: a very long title that has to wrap on the paper', quantity: 1, unitPrice: 18.99, lineTotal: 18.99 },
    { kind: 'gift_card', giftCard: { id: 'card-1', last4: '7Q2K' }, isbn: null, title: 'Gift card', quantity: 1, unitPrice: 20, lineTotal: 20 },
  ],
  total: 63.99,
  payment: { method: 'cash', tendered: 70 },
  change: 6.01,
  by,
  createdAt: '2026-12-06T14:05:09.000Z',
  soldAt: '2026-12-06T14:05:09.000Z',
  receivedAt: '2026-12-06T14:05:10.000Z',
  day: '2026-12-06',
  priceDiffers: false,
  returns: [],
};
const cardSale: Sale = {
  ...cashSale,
  _id: '5c1d2e3f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
  lines: [cashSale.lines[0]!],
  total: 25,
  payment: { method: 'card_terminal' },
  change: undefined,
};
delete (cardSale as Partial<Sale>).change;

const ESC_AT = [0x1b, 0x40];
const DRAWER_KICK = [0x1b, 0x70]; // ESC p m t1 t2
const indexOf = (bytes: Uint8Array, seq: number[]) => Buffer.from(bytes).indexOf(Buffer.from(seq));

function matchesReference(name: string, bytes: Uint8Array) {
  const file = new URL(name, FIXTURES);
  if (process.env.UPDATE_RECEIPT_FIXTURES) writeFileSync(file, bytes);
  const reference = readFileSync(file);
  expect(Buffer.from(bytes).equals(reference), `${name}: ${bytes.length} bytes made, ${reference.length} in the reference`).toBe(true);
}

describe('ESC/POS receipts', () => {
  it('a cash sale: the saved reference bytes exactly, initialised first, the drawer kicked', () => {
    const bytes = escposReceipt(receiptContent(cashSale, SHOP, { copy: false }));
    matchesReference('cash.bin', bytes);
    expect([...bytes.slice(0, 2)]).toEqual(ESC_AT);
    expect(indexOf(bytes, DRAWER_KICK)).toBeGreaterThan(0);
    const text = Buffer.from(bytes).toString('latin1');
    for (const part of ['Bookstore', '12 Quay Street', 'Harbour Town 4000', 'Pride and Prejudice', '2 x $12.50', '$25.00', '$63.99', 'Paid by Cash', 'Tendered', '$70.00', 'Change', '$6.01', 'Served by Ada']) {
      expect(text).toContain(part);
    }
    // The gift card's code masked (no code is stored to print in full), with asterisks for the printer.
    expect(text).toContain('Code **** 7Q2K');
    // The sale id as a QR code: GS ( k ... store data, then the id.
    expect(indexOf(bytes, [0x1d, 0x28, 0x6b])).toBeGreaterThan(0);
    expect(text).toContain(cashSale._id);
    expect(text).not.toContain('COPY');
  });

  it('a card sale: the saved reference bytes exactly, and no drawer kick', () => {
    const bytes = escposReceipt(receiptContent(cardSale, SHOP, { copy: false }));
    matchesReference('card.bin', bytes);
    expect([...bytes.slice(0, 2)]).toEqual(ESC_AT);
    expect(indexOf(bytes, DRAWER_KICK)).toBe(-1);
    const text = Buffer.from(bytes).toString('latin1');
    expect(text).toContain('Paid by Card on Terminal');
    expect(text).not.toContain('Tendered');
  });

  it('is the same bytes every time for the same sale', () => {
    const once = escposReceipt(receiptContent(cashSale, SHOP, { copy: false }));
    const again = escposReceipt(receiptContent(structuredClone(cashSale), { ...SHOP }, { copy: false }));
    expect(Buffer.from(once).equals(Buffer.from(again))).toBe(true);
  });

  it('a reprint says COPY, opens no drawer, and masks a gift card code even when the full one is known', () => {
    const codes = new Map([['card-1', 'GIFT-ABCD-EFGH-7Q2K']]);
    const original = receiptContent(cashSale, SHOP, { copy: false, giftCardCodes: codes });
    expect(original.lines[2]!.giftCardCode).toBe('GIFT-ABCD-EFGH-7Q2K');
    expect(Buffer.from(escposReceipt(original)).toString('latin1')).toContain('Code GIFT-ABCD-EFGH-7Q2K');

    const copy = receiptContent(cashSale, SHOP, { copy: true, giftCardCodes: codes });
    expect(copy.lines[2]!.giftCardCode).toBe('•••• 7Q2K');
    expect(copy.openDrawer).toBe(false);
    const bytes = escposReceipt(copy);
    const text = Buffer.from(bytes).toString('latin1');
    expect(text).toContain('COPY');
    expect(text).not.toContain('GIFT-ABCD');
    expect(indexOf(bytes, DRAWER_KICK)).toBe(-1);
  });
});

describe('the printable page and the mail', () => {
  it('carry the same content, escaped, the page sized for 80 mm paper', () => {
    const sale = { ...cardSale, lines: [{ ...cardSale.lines[0]!, title: 'Cats & <Dogs>' }] } as Sale;
    const html = htmlReceipt(receiptContent(sale, SHOP, { copy: true }));
    expect(html).toContain('size: 80mm auto');
    expect(html).toContain('Cats &amp; &lt;Dogs&gt;');
    expect(html).toContain('<strong>COPY</strong>');
    expect(html).toContain('Paid by Card on Terminal');
    expect(html).toContain('<svg');
    const mail = receiptMail(receiptContent(cashSale, SHOP, { copy: false }), 'reader@example.com');
    expect(mail.to).toBe('reader@example.com');
    expect(mail.message.subject).toBe('Your receipt from Bookstore (2026-12-06 14:05)');
    expect(mail.message.text).toContain('Change: $6.01');
    expect(mail.message.text).toContain('Code •••• 7Q2K');
    expect(mail.message.html).not.toContain('COPY');
  });

  it("names the shop as its mail's sender does", () => {
    expect(shopNameOf('Bookstore <orders@bookstore.localhost>')).toBe('Bookstore');
    expect(shopNameOf('"Harbour Books" <hello@example.com>')).toBe('Harbour Books');
    expect(shopNameOf('orders@example.com')).toBe('Bookstore');
  });
});
