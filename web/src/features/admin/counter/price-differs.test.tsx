// @vitest-environment happy-dom
import type { Sale, SalesPage, SalesSummary } from '@bookstore/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveAdminSession } from '../../../lib/admin-session';
import { Component as DayEndPage } from './day-end-page';
import { Component as SalePage } from './sale-page';

// What a manager sees of a sale the till charged other than the shop's price (issue 54), against a
// stubbed server: Day's End counts such sales and marks each in the day's list; the sale's page
// names each line, what was charged and the shop's price at the time.

const SALE: Sale = {
  _id: '6f1c2a9e-3b8d-4f7a-9c21-5e0d4b7a8c13',
  lines: [
    { bookId: 'b1', isbn: '9780306406157', title: 'The Quiet Ledger', quantity: 1, unitPrice: 10, lineTotal: 10, priceDiffers: true, bookPrice: 12.5 },
    { bookId: 'b2', isbn: '9780306406164', title: 'Margins', quantity: 1, unitPrice: 8, lineTotal: 8 },
  ],
  total: 18,
  payment: { method: 'cash' },
  by: { username: 'robin', name: 'Robin Till' },
  tillId: 'till-1',
  createdAt: '2026-11-24T16:00:00.000Z',
  soldAt: '2026-11-24T16:00:00.000Z',
  receivedAt: '2026-11-25T09:00:00.000Z',
  day: '2026-11-24',
  priceDiffers: true,
  returns: [],
};

// Issue 57: a card-terminal sale the reader declined took nothing; the day's list says so.
const DECLINED: Sale = {
  ...SALE, _id: '7a2d3b0f-4c9e-4a8b-8d32-6f1e5c8b9d24', lines: [SALE.lines[1]!], total: 8, payment: { method: 'card_terminal' }, priceDiffers: false, status: 'failed',
};

const SUMMARY: SalesSummary = {
  date: '2026-11-24', count: 1, total: 18, byMethod: { cash: 18, card_terminal: 0, gift_card: 0 }, byStaff: [{ name: 'Robin Till', count: 1, total: 18 }],
  giftCards: { count: 0, total: 0 }, returns: { count: 0, total: 0, byMethod: { cash: 0, card_terminal: 0, gift_card: 0 }, storeCredit: 0 }, net: 18, priceDiffers: 1,
};

beforeEach(() => {
  saveAdminSession('token', 3600);
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    if (url === '/online.txt') return new Response('ok');
    if (url.startsWith('/api/admin/sales/summary?date=2026-11-24')) return json(SUMMARY);
    if (url.startsWith('/api/admin/sales?date=2026-11-24')) return json({ sales: [SALE, DECLINED], nextCursor: null } satisfies SalesPage);
    if (url === `/api/admin/sales/${SALE._id}`) return json({ sale: SALE });
    return json({ message: 'not stubbed' }, 404);
  }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/dashboard/counter/day" element={<DayEndPage />} />
          <Route path="/dashboard/counter/sales/:id" element={<SalePage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('a price the till charged that is not the shop\'s', () => {
  it('Day\'s End counts the day\'s such sales and marks each in its list', async () => {
    renderAt('/dashboard/counter/day?date=2026-11-24');
    expect((await screen.findByTestId('day-price-differs')).textContent).toContain('1 sale was charged other than the shop');
    expect((await screen.findByText(/price differs$/)).textContent).toContain('2 books · Cash · Robin Till · price differs');
  });

  it("Day's End marks a card sale the reader declined as nothing taken", async () => {
    renderAt('/dashboard/counter/day?date=2026-11-24');
    expect((await screen.findByText(/nothing taken$/)).textContent).toBe('1 book · Card on Terminal · Robin Till · card declined, nothing taken');
  });

  it('the sale\'s page names the line, what was charged and the shop\'s price', async () => {
    renderAt(`/dashboard/counter/sales/${SALE._id}`);
    const section = await screen.findByRole('region', { name: 'Price differs' });
    expect(section.textContent).toContain("The Quiet Ledger: charged $10.00, the shop's price $12.50");
    expect(section.textContent).not.toContain('Margins');
  });
});
