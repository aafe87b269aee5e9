import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Shift } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import type { ReceiptShop } from '../sales/receipts/receipt';
import { escposZReport, htmlZReport, zReportContent } from './z-report';

// The Z-report builder is a pure function of (shifts, shop, options), as a sale's receipt: the ESC/POS
// bytes of a closed shift's report and of a day's report (one shift still open: an X-report) are
// compared byte for byte with saved reference files. After a deliberate change of layout, regenerate
// them with `UPDATE_RECEIPT_FIXTURES=1 npx vitest run --project unit functions/src/shifts/z-report`
// and look at the difference (`cmp -l`, or print them) before committing.

const FIXTURES = new URL('../../test/fixtures/z-reports/', import.meta.url);
const SHOP: ReceiptShop = { name: 'Bookstore', address: '12 Quay Street\nHarbour Town 4000' };
const NOW = '2026-12-06T18:02:00.000Z';

const closed: Shift = {
  _id: 'Kq3vX8pL2mN7rT1sW4yZ',
  tillId: 'till-1',
  status: 'closed',
  float: 100,
  openedAt: '2026-12-06T09:00:12.000Z',
  openedBy: 'ada',
  pettyCash: [
    { kind: 'pay_in', amount: 20, reason: 'Change from the bank', at: '2026-12-06T10:15:00.000Z', by: 'ada' },
    { kind: 'pay_out', amount: 7.25, reason: 'Milk for the staff room, and a very long reason that has to wrap on the paper', at: '2026-12-06T11:30:00.000Z', by: 'ada' },
  ],
  figures: {
    sales: { count: 3, byMethod: { cash: 37.5, card_terminal: 18.99 } },
    refunds: { count: 1, byMethod: { cash: 12.5, card_terminal: 0, store_credit: 0 } },
    payIns: 20,
    payOuts: 7.25,
    expected: 137.75,
  },
  closedAt: '2026-12-06T17:31:40.000Z',
  closedBy: 'grace',
  counted: 136.75,
  variance: -1,
};
const open: Shift = {
  _id: 'Bn5cD6eF7gH8iJ9kL0mN',
  tillId: 'till-2',
  status: 'open',
  float: 50,
  openedAt: '2026-12-06T12:00:00.000Z',
  openedBy: 'grace',
  pettyCash: [],
  figures: { sales: { count: 1, byMethod: { cash: 12.5, card_terminal: 0 } }, refunds: { count: 0, byMethod: { cash: 0, card_terminal: 0, store_credit: 0 } }, payIns: 0, payOuts: 0, expected: 62.5 },
};

const ESC_AT = [0x1b, 0x40];
const DRAWER_KICK = [0x1b, 0x70];
const indexOf = (bytes: Uint8Array, seq: number[]) => Buffer.from(bytes).indexOf(Buffer.from(seq));
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

function matchesReference(name: string, bytes: Uint8Array) {
  const file = new URL(name, FIXTURES);
  if (process.env.UPDATE_RECEIPT_FIXTURES) {
    mkdirSync(FIXTURES, { recursive: true });
    writeFileSync(file, bytes);
  }
  const reference = readFileSync(file);
  expect(Buffer.from(bytes).equals(reference), `${name}: ${bytes.length} bytes made, ${reference.length} in the reference`).toBe(true);
}

describe('a Z-report as ESC/POS', () => {
  it("a closed shift: the saved reference bytes exactly, initialised first, no drawer kick, with the shift's figures", () => {
    const bytes = escposZReport(zReportContent([closed], SHOP, { now: NOW }));
    matchesReference('shift-closed.bin', bytes);
    expect([...bytes.slice(0, 2)]).toEqual(ESC_AT);
    expect(indexOf(bytes, DRAWER_KICK)).toBe(-1);
    const t = text(bytes);
    for (const part of [
      'Bookstore', '12 Quay Street', 'Z-REPORT', `Shift ${closed._id}`, 'Till till-1', 'Opened 2026-12-06 09:00 by ada', 'Closed 2026-12-06 17:31 by grace',
      'Float', '$100.00', 'Sales (3)', '$56.49', 'Cash', '$37.50', 'Card on Terminal', '$18.99', 'Refunds (1)', '$12.50', 'Store credit',
      'Pay-ins', 'Change from the bank', '$20.00', 'Pay-outs', 'Milk for the staff room', '$7.25',
      'Expected cash', '$137.75', 'Counted', '$136.75', 'Variance (short)', '-$1.00', 'Printed 2026-12-06 18:02',
    ]) expect(t).toContain(part);
    expect(t).not.toContain('X-REPORT');
  });

  it("a day with a shift still open: an X-report, each shift's figures and the day's totals, the saved reference bytes", () => {
    const bytes = escposZReport(zReportContent([closed, open], SHOP, { day: '2026-12-06', now: NOW }));
    matchesReference('day-open.bin', bytes);
    expect([...bytes.slice(0, 2)]).toEqual(ESC_AT);
    const t = text(bytes);
    for (const part of ['X-REPORT', 'Day 2026-12-06', 'Not final: a shift is still open', 'Till till-1', 'Till till-2', 'Still open: figures so far', 'Day totals', '2 shifts, 1 still open', '$150.00', 'Sales (4)', '$68.99', '$50.00', '$200.25', 'Counted (closed shifts)', '-$1.00']) {
      expect(t).toContain(part);
    }
  });

  it('is the same bytes every time for the same shifts; over is signed +', () => {
    const once = escposZReport(zReportContent([closed], SHOP, { now: NOW }));
    const again = escposZReport(zReportContent([structuredClone(closed)], { ...SHOP }, { now: NOW }));
    expect(Buffer.from(once).equals(Buffer.from(again))).toBe(true);
    const over = text(escposZReport(zReportContent([{ ...closed, counted: 138.25, variance: 0.5 }], SHOP, { now: NOW })));
    expect(over).toContain('Variance (over)');
    expect(over).toContain('+$0.50');
  });

  it('a day without shifts says so', () => {
    const content = zReportContent([], SHOP, { day: '2026-12-05', now: NOW });
    expect(content.final).toBe(true);
    expect(text(escposZReport(content))).toContain('No shift was opened this day.');
  });
});

describe('the printable page', () => {
  it('carries the same figures, escaped, sized for 80 mm paper', () => {
    const html = htmlZReport(zReportContent([{ ...closed, pettyCash: [{ ...closed.pettyCash[0]!, reason: 'Float <top-up> & coins' }] }], SHOP, { now: NOW }));
    expect(html).toContain('size: 80mm auto');
    expect(html).toContain('<strong>Z-REPORT</strong>');
    expect(html).toContain('Float &lt;top-up&gt; &amp; coins');
    for (const part of ['Expected cash', '$137.75', '$136.75', 'Variance (short)', '-$1.00', 'Card on Terminal']) expect(html).toContain(part);
    const x = htmlZReport(zReportContent([open], SHOP, { now: NOW }));
    expect(x).toContain('<strong>X-REPORT</strong>');
    expect(x).toContain('Not final: a shift is still open');
    expect(x).not.toContain('Variance');
  });
});
