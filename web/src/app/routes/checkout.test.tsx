// @vitest-environment happy-dom
import type { Book, Order } from '@bookstore/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cart } from '../../features/cart/cart-store';
import { CheckoutForm } from './checkout';

// The checkout form as the shopper uses it: real cart, real order placement and API client, real
// sweetalert2 dialogs. Only fetch is stubbed (and Firebase Auth has no one signed in, so the
// request carries no token: the stub plays the API).

const book = (id: string, newPrice: number): Book => ({
  _id: id, title: `Book ${id}`, description: 'x', category: 'fiction', trending: false, coverImage: 'book-1',
  oldPrice: newPrice, newPrice, stock: 5, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
});

interface Sent { body: Record<string, unknown>; key: string | null }
let sent: Sent[];
let answers: { status: number; body: unknown }[];
let quoted: string[];

const placed = (totalPrice: number): Order => ({
  _id: 'order-1', uid: 'u1', name: 'Ann Reader', email: 'reader@example.com', phone: '5550100',
  address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' },
  productIDs: ['a', 'b'], items: [], totalPrice, status: 'pending', events: [],
  createdAt: '2026-11-22T00:00:00.000Z', updatedAt: '2026-11-22T00:00:00.000Z',
  payment: { method: 'cash', status: 'due', amount: totalPrice, refunded: 0, refunds: [] },
});

const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  if (url.startsWith('/api/orders?limit=1')) return json(200, { orders: [], nextCursor: null }); // the pre-fill: no earlier order
  if (url === '/api/checkout/quote' && init?.method === 'POST') {
    // The shop delivers locally (627*) for free and posts anywhere in the US for 3.99 (free from $50), tax included (issues 27, 36).
    const { delivery } = JSON.parse(String(init.body)) as { delivery: { method?: 'local' | 'post' | 'pickup'; country?: string; zipcode?: string } };
    quoted.push(delivery.method ?? 'default');
    const local = delivery.country === 'US' && delivery.zipcode?.startsWith('627');
    const methods = [
      { method: 'local', label: 'Local delivery', available: !!local, price: local ? 0 : null, ...(delivery.country && delivery.zipcode ? (local ? {} : { reason: 'We do not deliver to this zipcode' }) : { needsAddress: true, reason: 'Enter your zipcode' }) },
      { method: 'post', label: 'Post', available: delivery.country === 'US', price: delivery.country === 'US' ? 3.99 : null, zone: 'United States', ...(delivery.country ? {} : { needsAddress: true, reason: 'Choose your country' }) },
    ];
    const method = delivery.method ?? (local ? 'local' : delivery.country === 'US' ? 'post' : null);
    const offer = methods.find((m) => m.method === method) as { available: boolean; price: number | null; reason?: string } | undefined;
    const shop = { countries: ['US'], everyCountry: false, subtotal: 22.5, taxIncluded: true, taxLabel: 'Sales tax', taxRate: 6.25, taxed: true, weightGrams: 800, freeShippingFrom: 50, toFreeShipping: 27.5, methods };
    if (!offer?.available) return json(200, { ...shop, method, available: false, reason: offer?.reason ?? 'Choose your country', shipping: null, tax: null, total: null });
    return json(200, { ...shop, method, available: true, shipping: offer.price, tax: 1.32, total: 22.5 + offer.price! });
  }
  if (url === '/api/orders' && init?.method === 'POST') {
    sent.push({ body: JSON.parse(String(init.body)), key: new Headers(init.headers).get('Idempotency-Key') });
    const answer = answers.shift() ?? { status: 500, body: { message: 'no answer left' } };
    return json(answer.status, answer.body);
  }
  return json(404, { message: `No route for ${url}` });
});

function Orders() {
  return <h1>Your orders</h1>;
}

function renderCheckout() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/checkout']}>
        <Routes>
          <Route path="/checkout" element={<CheckoutForm user={{ uid: 'u1', email: 'reader@example.com' }} />} />
          <Route path="/orders" element={<Orders />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The personal details and the address: typed where typed, chosen where chosen (issue 36). */
async function fillDelivery(user: ReturnType<typeof userEvent.setup>, zipcode = '62701') {
  const typed: Record<string, string> = { 'Full Name': 'Ann Reader', 'Phone Number': '5550100', 'Address / Street': '1 Main St', City: 'Springfield' };
  for (const [label, value] of Object.entries(typed)) await user.type(screen.getByLabelText(label), value);
  await waitFor(() => expect(screen.getByRole('option', { name: 'United States' })).toBeTruthy());
  await user.selectOptions(screen.getByLabelText('Country / region'), 'US');
  await user.selectOptions(screen.getByLabelText('State / province'), 'IL');
  await user.type(screen.getByLabelText('Zipcode'), zipcode);
}

async function fillAndPlace() {
  const user = userEvent.setup();
  renderCheckout();
  await fillDelivery(user);
  await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
  // Enabled once the server has priced this cart for this address (a quote, issue 27).
  await waitFor(() => expect(screen.getByRole('button', { name: 'Place an Order' })).toHaveProperty('disabled', false), { timeout: 5000 });
  await user.click(screen.getByRole('button', { name: 'Place an Order' }));
  return user;
}

beforeAll(() => {
  // A configured (not emulator) build: the auth SDK loads, with no one signed in.
  vi.stubEnv('VITE_FIREBASE_API_KEY', 'test-api-key');
  vi.stubEnv('VITE_FIREBASE_AUTH_DOMAIN', 'demo-bookstore.firebaseapp.com');
  vi.stubEnv('VITE_FIREBASE_PROJECT_ID', 'demo-bookstore');
});
beforeEach(() => {
  sent = [];
  answers = [];
  quoted = [];
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  cart.clear();
  cart.add(book('a', 10));
  cart.add(book('b', 12.5));
});
afterEach(() => {
  cleanup();
  document.body.innerHTML = ''; // sweetalert2's container
  vi.unstubAllGlobals();
});

describe('checkout', { timeout: 20_000 }, () => {
  it('places the order with the cart’s total and says what is due on delivery', async () => {
    answers = [{ status: 201, body: placed(22.5) }];
    const user = await fillAndPlace();
    expect(await screen.findByText('Your order order-1 has been placed. You will pay $22.50 on delivery.', {}, { timeout: 5000 })).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual({
      name: 'Ann Reader', email: 'reader@example.com', phone: '5550100',
      address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' },
      productIDs: ['a', 'b'], totalPrice: '22.50', delivery: { method: 'local' },
    });
    // Nobody chose: every quote asked for the default, and the order carries the one the address has.
    expect(quoted.every((m) => m === 'default')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Yes, OK!' }));
    expect(await screen.findByRole('heading', { name: 'Your orders' })).toBeTruthy();
    expect(cart.clear()).toBe(false); // already empty
  });

  it('when prices changed, asks to confirm the new total and resends it with the same key', async () => {
    answers = [
      { status: 409, body: { message: 'Prices have changed', code: 'PRICE_CHANGED', totalPrice: 25.5 } },
      { status: 201, body: placed(25.5) },
    ];
    const user = await fillAndPlace();
    expect(await screen.findByText('The new total is $25.50. Place the order at this price?', {}, { timeout: 5000 })).toBeTruthy();
    expect(sent).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Place order' }));
    expect(await screen.findByText('Your order order-1 has been placed. You will pay $25.50 on delivery.', {}, { timeout: 5000 })).toBeTruthy();
    expect(sent.map((s) => s.body.totalPrice)).toEqual(['22.50', '25.50']);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(sent[1]!.body.productIDs).toEqual(['a', 'b']);
  });

  it('chooses nothing before the address says what it can have, then the method it can have', async () => {
    const user = userEvent.setup();
    renderCheckout();
    await waitFor(() => expect(screen.getByRole('radio', { name: /Local delivery/ })).toBeTruthy());
    expect(screen.getAllByRole('radio').filter((r) => (r as HTMLInputElement).checked)).toEqual([]);
    expect(screen.getByText('Choose your country above to see what delivery costs, or pick up in the shop.')).toBeTruthy();
    // An Illinois zipcode outside local delivery (a California one with IL is refused by the address check, issue 55).
    await fillDelivery(user, '60601');
    expect(await screen.findByText('We do not deliver to this zipcode', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('radio', { name: /Post/ })).toHaveProperty('checked', true);
    expect(screen.getByRole('radio', { name: /Local delivery/ })).toHaveProperty('disabled', true);
  });

  it('keeps the summary’s rows while the address is priced, so the terms box and Place an Order do not move', async () => {
    const user = userEvent.setup();
    renderCheckout();
    // Each line of the summary: its name and amount, as a screen reader has them ('-' is 'not priced yet').
    const lines = () => [...screen.getByTestId('quote-summary').children].map((line) => `${line.children[0]!.textContent} ${line.children[1]!.textContent}`);
    await waitFor(() => expect(screen.getByTestId('quote-summary')).toBeTruthy());
    expect(lines()).toEqual(['Subtotal $22.50', 'Shipping -not priced yet', 'Includes Sales tax (6.25%) -not priced yet', 'Free shipping Post is free from $50.00', 'Total -not priced yet']);
    await fillDelivery(user);
    await waitFor(() => expect(screen.getByTestId('quote-total').textContent).toBe('$22.50'), { timeout: 5000 });
    expect(lines()).toEqual(['Subtotal $22.50', 'Local delivery Free', 'Includes Sales tax (6.25%) $1.32', 'Free shipping Post is free from $50.00', 'Total $22.50']);
    await user.clear(screen.getByLabelText('Zipcode'));
    await user.type(screen.getByLabelText('Zipcode'), '60601');
    await waitFor(() => expect(screen.getByTestId('quote-total').textContent).toBe('$26.49'), { timeout: 5000 });
    expect(lines()).toEqual(['Subtotal $22.50', 'Post $3.99', 'Includes Sales tax (6.25%) $1.32', 'Free shipping You are $27.50 from free shipping', 'Total $26.49']);
  });

  it('a chosen method the address cannot have gives way, and says why', async () => {
    const user = userEvent.setup();
    renderCheckout();
    await fillDelivery(user);
    await waitFor(() => expect(screen.getByRole('radio', { name: /Local delivery/ })).toHaveProperty('checked', true), { timeout: 5000 });
    // Chosen now, not only preselected.
    await user.click(screen.getByRole('radio', { name: /Post/ }));
    await user.click(screen.getByRole('radio', { name: /Local delivery/ }));
    await user.clear(screen.getByLabelText('Zipcode'));
    await user.type(screen.getByLabelText('Zipcode'), '60601');
    await waitFor(() => expect(screen.getByRole('radio', { name: /Post/ })).toHaveProperty('checked', true), { timeout: 5000 });
    expect(screen.getByTestId('method-gave-way').textContent).toBe('Local delivery: We do not deliver to this zipcode.');
  });

  it('says what is wrong with a zipcode under it, and the order waits for a right one', async () => {
    const user = userEvent.setup();
    renderCheckout();
    await fillDelivery(user, '627');
    await user.tab();
    expect(await screen.findByText('Enter a United States zipcode, such as 62701')).toBeTruthy();
    expect(screen.getByLabelText('Zipcode')).toHaveProperty('validationMessage', 'Enter a United States zipcode, such as 62701');
    expect(screen.getByLabelText('Zipcode').getAttribute('aria-invalid')).toBe('true');
    expect(quoted.length).toBeGreaterThan(0);
    await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
    // Priced for the country alone (post), but the form is invalid at the zipcode: the browser does not submit it.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Place an Order' })).toHaveProperty('disabled', false), { timeout: 5000 });
    expect((screen.getByLabelText('Zipcode') as HTMLInputElement).closest('form')!.checkValidity()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Place an Order' }));
    expect(screen.queryByText('Loading...')).toBeNull();
    expect(sent).toEqual([]);
  });

  it('when prices changed and the shopper declines, sends nothing more and keeps the cart and the form', async () => {
    answers = [{ status: 409, body: { message: 'Prices have changed', code: 'PRICE_CHANGED', totalPrice: 25.5 } }];
    const user = await fillAndPlace();
    expect(await screen.findByText('The new total is $25.50. Place the order at this price?', {}, { timeout: 5000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Place an Order' })).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent).toHaveLength(1);
    expect(screen.queryByText(/has been placed/)).toBeNull();
    expect(screen.getByLabelText('Full Name')).toHaveProperty('value', 'Ann Reader');
    expect(cart.clear()).toBe(true); // the books were still there
  });
});
