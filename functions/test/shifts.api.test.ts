import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { adminToken, base, db, expectUnchangedIn, http, makeBooks, newCustomer, removeBooks, type TestBook } from './helpers';

// Shifts at the till (issue 57), over HTTP through Hosting to the function on the emulators: a
// till's drawer from its float to its count. Each test uses a till of its own (sales and returns
// carry the till's id), so the shift's figures are this file's alone.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
type Book = TestBook & { isbn: string };
const made: TestBook[] = [];
afterAll(async () => removeBooks(made));

const cents = (dollars: number) => Math.round(dollars * 100);
const post = async (path: string, json: unknown) => http(path, { method: 'POST', token: await adminToken(), json });
const open = (tillId: string, float: unknown) => post('/api/admin/shifts', { tillId, float });

/** The drawer's cash recounted from what is stored: the float, the till's cash sales and refunds since it opened, the petty cash. */
async function recount(tillId: string, shiftId: string): Promise<number> {
  const shift = (await db().collection('shifts').doc(shiftId).get()).data()!;
  const since = (q: FirebaseFirestore.Query) => q.where('tillId', '==', tillId).where('createdAt', '>=', shift.openedAt).get();
  const sales = await since(db().collection('sales'));
  const returns = await since(db().collection('saleReturns'));
  let total = shift.floatCents as number;
  for (const s of sales.docs) if (s.get('payment.method') === 'cash' && (s.get('status') ?? 'complete') === 'complete') total += s.get('totalCents') as number;
  for (const r of returns.docs) if (r.get('refundMethod') === 'cash') total -= r.get('totalCents') as number;
  for (const p of shift.pettyCash as { kind: string; cents: number }[]) total += p.kind === 'pay_in' ? p.cents : -p.cents;
  return total;
}

describe('a shift at the till', () => {
  it("float, cash sales, a refund, a pay-in and a pay-out: the expected cash equals a recount; closing records the count and the variance once", async () => {
    const tillId = `till-s-${RUN}`;
    const [book] = (await makeBooks(1, 10, 1250, { isbn: true })) as Book[];
    made.push(book!);
    const opened = await open(tillId, '100.00');
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const shift = opened.body.shift;
    expect(shift).toMatchObject({ tillId, status: 'open', float: 100, figures: { expected: 100 } });
    // One shift open per till.
    const twice = await open(tillId, 50);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('SHIFT_ALREADY_OPEN');

    const sale = (quantity: number, tendered?: string) => post('/api/admin/sales', { saleId: randomUUID(), tillId, lines: [{ isbn: book!.isbn, quantity }], payment: { method: 'cash', ...(tendered ? { tendered } : {}) } });
    const first = await sale(2, '30.00'); // 25.00 taken, 5.00 change
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await sale(1)).status).toBe(201);
    const back = await post(`/api/admin/sales/${first.body.sale._id}/returns`, { returnId: randomUUID(), tillId, lines: [{ isbn: book!.isbn, quantity: 1 }], refundMethod: 'cash' });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect((await post(`/api/admin/shifts/${shift._id}/petty-cash`, { kind: 'pay_in', amount: 20, reason: 'Change from the bank' })).status).toBe(201);
    const out = await post(`/api/admin/shifts/${shift._id}/petty-cash`, { kind: 'pay_out', amount: '7.25', reason: 'Milk for the staff room' });
    expect(out.status).toBe(201);

    // 100 + 25.00 + 12.50 - 12.50 + 20 - 7.25
    const expected = 137.75;
    expect(out.body.shift.figures).toMatchObject({ expected, payIns: 20, payOuts: 7.25, sales: { count: 2, byMethod: { cash: 37.5 } }, refunds: { count: 1, byMethod: { cash: 12.5 } } });
    expect(cents(expected)).toBe(await recount(tillId, shift._id));

    const closed = await post(`/api/admin/shifts/${shift._id}/close`, { counted: '136.75' });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.shift).toMatchObject({ status: 'closed', counted: 136.75, variance: -1, figures: { expected } });
    const audit = (await db().collection('audit').where('target', '==', `shifts/${shift._id}`).get()).docs.map((d) => d.data());
    expect(audit.map((e) => e.action).sort()).toEqual(['shift.close', 'shift.open', 'shift.pay-in', 'shift.pay-out']);
    expect(audit.find((e) => e.action === 'shift.close')!.changes.variance).toEqual({ before: null, after: -1 });

    // Closed once: a second close, or petty cash after it, changes nothing.
    await expectUnchangedIn([db().collection('shifts').doc(shift._id), db().collection('tills').doc(tillId)], async () => {
      const again = await post(`/api/admin/shifts/${shift._id}/close`, { counted: 137.75 });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('SHIFT_CLOSED');
      expect((await post(`/api/admin/shifts/${shift._id}/petty-cash`, { kind: 'pay_out', amount: 1, reason: 'Late' })).body.code).toBe('SHIFT_CLOSED');
    });
    // The till is free for the next shift; the day's list names both.
    const next = await open(tillId, 80);
    expect(next.status).toBe(201);
    const day = await http(`/api/admin/shifts?date=${shift.openedAt.slice(0, 10)}&tillId=${tillId}`, { token: await adminToken() });
    expect(day.status).toBe(200);
    expect(day.body.shifts.map((s: { _id: string; status: string }) => [s._id, s.status])).toEqual([[shift._id, 'closed'], [next.body.shift._id, 'open']]);
    expect((await http(`/api/admin/shifts/open?tillId=${tillId}`, { token: await adminToken() })).body.shift._id).toBe(next.body.shift._id);
  });

  it('bad input names the field and changes nothing; a customer is no staff', async () => {
    const tillId = `till-b-${RUN}`;
    const opened = await open(tillId, 50);
    expect(opened.status).toBe(201);
    const id = opened.body.shift._id;
    const scope = [db().collection('shifts').where('tillId', 'in', [tillId, `${tillId}-x`, `${tillId}-c`]), db().collection('tills').doc(tillId), db().collection('tills').doc(`${tillId}-x`)];
    await expectUnchangedIn(scope, async () => {
      for (const [path, body, field] of [
        ['/api/admin/shifts', { tillId: 'Till 1', float: 10 }, 'tillId'],
        ['/api/admin/shifts', { tillId: `${tillId}-x`, float: 'ten' }, 'float'],
        ['/api/admin/shifts', { tillId: `${tillId}-x`, float: -5 }, 'float'],
        [`/api/admin/shifts/${id}/close`, { counted: 12.345 }, 'counted'],
        [`/api/admin/shifts/${id}/petty-cash`, { kind: 'pay_out', amount: 5 }, 'reason'],
        [`/api/admin/shifts/${id}/petty-cash`, { kind: 'tip', amount: 5, reason: 'x' }, 'kind'],
        [`/api/admin/shifts/${id}/petty-cash`, { kind: 'pay_in', amount: 0, reason: 'x' }, 'amount'],
      ] as const) {
        const res = await post(path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(res.body.message).toMatch(new RegExp(field));
      }
      expect((await post('/api/admin/shifts/no-such-shift/close', { counted: 1 })).status).toBe(404);
      const customer = await newCustomer('shift-peek');
      expect((await http('/api/admin/shifts', { method: 'POST', token: customer.token, json: { tillId: `${tillId}-c`, float: 1 } })).status).toBe(401);
    });
  });
});

/** A Z-report's raw answer (the ESC/POS bytes are not text: http() would decode them). */
async function zReport(path: string, token: string | null) {
  const res = await fetch(`${base()}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type') ?? '', final: res.headers.get('x-z-report-final'), bytes, text: bytes.toString('latin1') };
}

describe('the Z-report of a shift and of a day', () => {
  it('an open shift prints an X-report; closed, its Z-report as ESC/POS and as the 80 mm page with its figures; the day has every till and its totals', async () => {
    const token = await adminToken();
    const tillId = `till-z-${RUN}`;
    const [book] = (await makeBooks(1, 10, 1250, { isbn: true })) as Book[];
    made.push(book!);
    const opened = await open(tillId, '60.00');
    expect(opened.status).toBe(201);
    const id = opened.body.shift._id as string;
    expect((await post('/api/admin/sales', { saleId: randomUUID(), tillId, lines: [{ isbn: book!.isbn, quantity: 2 }], payment: { method: 'cash' } })).status).toBe(201);
    expect((await post(`/api/admin/shifts/${id}/petty-cash`, { kind: 'pay_out', amount: '4.50', reason: 'Window cleaner' })).status).toBe(201);

    const x = await zReport(`/api/admin/shifts/${id}/z-report?format=escpos`, token);
    expect(x.status).toBe(200);
    expect(x.final).toBe('false');
    expect(x.text).toContain('X-REPORT');
    expect(x.text).not.toContain('Variance');

    // 60.00 + 25.00 - 4.50 = 80.50 expected; 80.00 counted: 0.50 short.
    expect((await post(`/api/admin/shifts/${id}/close`, { counted: '80.00' })).status).toBe(200);
    const escpos = await zReport(`/api/admin/shifts/${id}/z-report?format=escpos`, token);
    expect(escpos.status).toBe(200);
    expect(escpos.type).toMatch(/^application\/octet-stream/);
    expect(escpos.final).toBe('true');
    expect(escpos.bytes.subarray(0, 2).equals(Buffer.from([0x1b, 0x40]))).toBe(true);
    for (const part of ['Z-REPORT', `Till ${tillId}`, `Shift ${id}`, 'Float', '$60.00', 'Sales (1)', '$25.00', 'Window cleaner', '$4.50', 'Expected cash', '$80.50', 'Counted', '$80.00', 'Variance (short)', '-$0.50']) {
      expect(escpos.text).toContain(part);
    }
    const page = await zReport(`/api/admin/shifts/${id}/z-report?format=html`, token);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    const html = page.bytes.toString('utf8');
    expect(html).toContain('size: 80mm auto');
    for (const part of ['<strong>Z-REPORT</strong>', `Till ${tillId}`, '$60.00', '$25.00', 'Window cleaner', '$80.50', '$80.00', 'Variance (short)', '-$0.50']) expect(html).toContain(part);

    const date = (opened.body.shift.openedAt as string).slice(0, 10);
    const day = await zReport(`/api/admin/shifts/z-report?date=${date}&format=escpos`, token);
    expect(day.status).toBe(200);
    expect(day.bytes.subarray(0, 2).equals(Buffer.from([0x1b, 0x40]))).toBe(true);
    for (const part of [`Day ${date}`, `Till ${tillId}`, `Shift ${id}`, 'Window cleaner', 'Day totals', 'Expected cash']) expect(day.text).toContain(part);
    const dayPage = await zReport(`/api/admin/shifts/z-report?date=${date}&format=html`, token);
    expect(dayPage.status).toBe(200);
    expect(dayPage.type).toMatch(/^text\/html/);
    expect(dayPage.bytes.toString('utf8')).toContain(`Till ${tillId}`);
    // A day without shifts is a report that says so.
    const empty = await zReport('/api/admin/shifts/z-report?date=2001-01-01&format=html', token);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('No shift was opened this day.');
  });

  it('refuses an unknown shift (404), a bad date or format (400 naming it) and a caller without a staff token (401), as JSON, changing nothing', async () => {
    const token = await adminToken();
    const tillId = `till-zb-${RUN}`;
    const opened = await open(tillId, 10);
    expect(opened.status).toBe(201);
    const id = opened.body.shift._id as string;
    await expectUnchangedIn([db().collection('shifts').doc(id), db().collection('tills').doc(tillId)], async () => {
      for (const path of [`/api/admin/shifts/${id}/z-report`, `/api/admin/shifts/${id}/z-report?format=pdf`, '/api/admin/shifts/z-report?date=2026-12-06&format=text']) {
        const res = await http(path, { token });
        expect(res.status, path).toBe(400);
        expect(res.body.message).toBe('format must be escpos or html');
      }
      for (const date of ['', '06-12-2026', '2026-02-30', 'today']) {
        const res = await http(`/api/admin/shifts/z-report?date=${date}&format=escpos`, { token });
        expect(res.status, date).toBe(400);
        expect(res.body.message).toMatch(/^date must be/);
      }
      for (const path of ['/api/admin/shifts/no-such-shift/z-report?format=escpos', '/api/admin/shifts/not%20a%20shift/z-report?format=html']) {
        const res = await http(path, { token });
        expect(res.status, path).toBe(404);
        expect(res.body.message).toBe('Shift not found');
      }
      expect((await zReport(`/api/admin/shifts/${id}/z-report?format=escpos`, null)).status).toBe(401);
      const customer = await newCustomer('z-report-peek');
      expect((await zReport('/api/admin/shifts/z-report?date=2026-12-06&format=html', customer.token)).status).toBe(401);
    });
  });
});
