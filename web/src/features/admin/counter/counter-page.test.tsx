// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import type { CounterBook } from '@bookstore/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IDBFactory } from 'fake-indexeddb';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveAdminSession } from '../../../lib/admin-session';
import { Component as CounterPage } from './counter-page';
import { resetCounterDbForTests } from './counter-store';

// The Counter page against a stubbed server (only fetch is stubbed; IndexedDB is fake-indexeddb):
// a scan is digits and Enter, a second scan of the same book is one more copy, Take Cash completes
// the sale with the change, and a sale the network cannot carry is complete at the till and waits.

const BOOK: CounterBook = { _id: 'b1', isbn: '9780306406157', title: 'The Quiet Ledger', author: 'Mara Ellison', price: 12.5, updatedAt: '2026-11-01T00:00:00.000Z' };
const ME = { username: 'robin', displayName: 'Robin Till', role: 'bookseller', disabled: false, totpEnabled: false, permissions: [], totpSetupRequired: false };

// The device's book list and codes arrive through IndexedDB after a fetch: on a loaded machine (the
// full suite, two cores) that took over waitFor's default second; waited for, not timed.
const DEVICE_SYNC = { timeout: 10_000 };

let posted: unknown[] = [];
let network: 'up' | 'down' = 'up';
let needsApproval = false;

function stubServer() {
  posted = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/online.txt') return new Response('ok');
    if (network === 'down') throw new TypeError('Failed to fetch');
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    if (url === '/api/admin/me') return json(ME);
    if (url.startsWith('/api/admin/sales/books?')) return json({ books: [BOOK], nextCursor: null });
    if (url.startsWith('/api/admin/sales/books/')) return json({ message: 'No book has ISBN', code: 'NO_BOOK_WITH_ISBN' }, 404);
    if (url === '/api/admin/gift-cards/reserve') {
      const { count, tillId } = JSON.parse(String(init!.body)) as { count: number; tillId: string };
      return json({ codes: Array.from({ length: count }, (_, i) => `AAAA-BBBB-CCCC-DDD${i}`), tillId }, 201);
    }
    if (url === '/api/admin/sales' && init?.method === 'POST') {
      const body = JSON.parse(String(init.body));
      posted.push(body);
      if (needsApproval && !body.approval) return json({ message: 'A manager must approve this', code: 'MANAGER_APPROVAL_REQUIRED' }, 403);
      const tendered = body.payment.tendered ? Number(body.payment.tendered) : undefined;
      const total = body.lines[0].quantity * 12.5;
      return json({
        sale: {
          _id: body.saleId, lines: [{ bookId: 'b1', isbn: BOOK.isbn, title: BOOK.title, quantity: body.lines[0].quantity, unitPrice: 12.5, lineTotal: total }],
          total, payment: { method: body.payment.method, ...(tendered ? { tendered } : {}) }, ...(tendered ? { change: tendered - total } : {}),
          by: { username: 'robin', name: 'Robin Till' }, createdAt: '2026-11-25T10:00:00.000Z', day: '2026-11-25', returns: [],
        },
      }, 201);
    }
    return json({ message: 'not stubbed' }, 404);
  }));
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}><MemoryRouter><CounterPage /></MemoryRouter></QueryClientProvider>);
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetCounterDbForTests();
  network = 'up';
  needsApproval = false;
  localStorage.clear();
  saveAdminSession('token', 3600);
  stubServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function scan(user: ReturnType<typeof userEvent.setup>, digits: string) {
  await user.type(screen.getByLabelText('Scan or type an ISBN'), `${digits}{Enter}`);
}

describe('the Counter page', () => {
  it('scan, scan again, Take Cash with an amount tendered: Sale complete, the change and the receipt', async () => {
    const user = userEvent.setup();
    renderPage();
    await waitFor(() => expect(screen.getByTestId('device-books').textContent).toContain('1 book on this device'), DEVICE_SYNC);
    await scan(user, '9780306406157');
    const lines = await screen.findByRole('list', { name: 'Books in this sale' });
    expect(within(lines).getByText('The Quiet Ledger')).toBeTruthy();
    await scan(user, '0-306-40615-2'); // the same book's ISBN-10
    await waitFor(() => expect(within(lines).getByTestId('quantity').textContent).toBe('2'));
    expect(screen.getByTestId('sale-total').textContent).toBe('$25.00');

    await user.type(screen.getByLabelText(/Amount tendered/), '30');
    expect(screen.getByText('Change:').textContent).toContain('$5.00');
    await user.click(screen.getByRole('button', { name: 'Take Cash' }));
    expect(await screen.findByRole('heading', { name: 'Sale complete' })).toBeTruthy();
    expect(screen.getByText(/Change due/).textContent).toContain('$5.00');
    const receipt = screen.getByRole('article', { name: 'Receipt' });
    expect(receipt.textContent).toContain('2 x $12.50');
    expect(receipt.textContent).toContain('Served by Robin Till');
    // With the price the till showed and the time it made the sale (issue 54).
    expect(posted).toEqual([{
      saleId: expect.stringMatching(/^[0-9a-f-]{36}$/), lines: [{ bookId: 'b1', quantity: 2, unitPrice: '12.50' }], payment: { method: 'cash', tendered: '30.00' },
      soldAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      // Issue 55: the device's till and who made the sale.
      tillId: 'till-1', by: 'robin',
    }]);
  });

  it('an ISBN nobody has is said so; a wrong check digit is said so; nothing is added', async () => {
    const user = userEvent.setup();
    renderPage();
    await scan(user, '9780306406164');
    expect((await screen.findByRole('alert')).textContent).toContain('No book in the catalogue has ISBN 9780306406164.');
    await scan(user, '9780306406158');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('wrong check digit'));
    expect(screen.queryByRole('list', { name: 'Books in this sale' })).toBeNull();
  });

  it('a sale the network cannot carry is complete at the till and waits on the device', async () => {
    const user = userEvent.setup();
    renderPage();
    await waitFor(() => expect(screen.getByTestId('device-books').textContent).toContain('1 book on this device'), DEVICE_SYNC);
    // Issue 55: codes the shop reserved for this till, for a gift card sold offline.
    await waitFor(() => expect(screen.getByTestId('device-codes').textContent).toBe('5 gift card codes kept for selling offline'), DEVICE_SYNC);
    network = 'down';
    await scan(user, '9780306406157'); // from the device's list: no request
    await user.click(await screen.findByRole('button', { name: 'Take Cash' }));
    expect(await screen.findByRole('heading', { name: 'Sale complete' })).toBeTruthy();
    expect(screen.getByText(/Waiting to sync: this sale is kept on this device/)).toBeTruthy();
    const waiting = await screen.findByRole('list', { name: 'Sales not yet synced' });
    expect(waiting.textContent).toContain('waiting to sync');
    expect(posted).toEqual([]);
  });

  it("a sale the shop wants approved opens Manager approval; the manager's username and password go with the sale sent again", async () => {
    const user = userEvent.setup();
    needsApproval = true;
    renderPage();
    await waitFor(() => expect(screen.getByTestId('device-books').textContent).toContain('1 book on this device'), DEVICE_SYNC);
    await scan(user, '9780306406157');
    await user.click(await screen.findByRole('button', { name: 'Take Cash' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manager approval' });
    expect(dialog.textContent).toContain('A manager must approve this');
    await user.type(within(dialog).getByLabelText("Manager's username"), 'morgan');
    await user.type(within(dialog).getByLabelText("Manager's password"), 'manager-secret-1');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('heading', { name: 'Sale complete' })).toBeTruthy();
    expect(posted).toHaveLength(2);
    expect((posted[1] as { saleId: string }).saleId).toBe((posted[0] as { saleId: string }).saleId);
    expect((posted[1] as { approval: unknown }).approval).toEqual({ username: 'morgan', password: 'manager-secret-1' });
  });
});
