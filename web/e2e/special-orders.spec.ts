import { formatDate, shopToday } from '@bookstore/contract';
import { expect, ownerToken, test, uniqueTitle } from './fixtures';
import { signIn, withIsbn13Check } from './helpers';

// Special orders (issue 41) as a shopper meets them: a search that finds nothing offers 'Can't find
// it? Ask us to order it'; the request is quoted by the desk (here through the API, as the desk's
// page does) and the shopper accepts the quote, which places an order.

const SHOTS = 'artifacts/screenshots';

/** A valid ISBN-13 under 979-15, unique per run. */
function isbn(): string {
  return withIsbn13Check(`97915${String(Date.now() % 1e7).padStart(7, '0')}`);
}

for (const width of [375, 1280]) {
  test(`a shopper asks for a book the shop does not list and accepts the quote (${width} px)`, async ({ page, shopper, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const title = uniqueTitle('Zqxwvj');
    const code = isbn();
    await signIn(page, shopper.email, shopper.password);
    await page.goto(`/search?q=${encodeURIComponent(title)}`);
    await expect(page.getByText('No books match')).toBeVisible();
    await page.getByRole('link', { name: "Can't find it? Ask us to order it" }).click();
    await expect(page.getByRole('heading', { name: 'Special orders', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Title (optional)')).toHaveValue(title);
    await page.getByLabel('ISBN').fill(code);
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Ask us to order it' }).click();
    const card = page.getByRole('article', { name: `Request for ${title}` });
    await expect(card.getByTestId('special-status')).toHaveText('Requested: we are finding it');
    await page.screenshot({ path: `${SHOTS}/special-order-requested-${width}.png`, fullPage: true });

    // The desk quotes it: $21.00 a copy, expected on a date.
    const token = await ownerToken(request);
    const list = await request.get('/api/admin/special-orders?status=requested&limit=50', { headers: { Authorization: `Bearer ${token}` } });
    const mine = ((await list.json()).specialOrders as { _id: string; title: string }[]).find((s) => s.title === title)!;
    // A date 45 days ahead: a quote's date is from today to a year ahead (issue 55).
    const ahead = new Date(`${shopToday()}T12:00:00Z`);
    ahead.setUTCDate(ahead.getUTCDate() + 45);
    const expectedOn = ahead.toISOString().slice(0, 10);
    const quoted = await request.post(`/api/admin/special-orders/${mine._id}/status`, { headers: { Authorization: `Bearer ${token}` }, data: { status: 'quoted', price: 21, expectedOn } });
    expect(quoted.status()).toBe(200);

    await page.reload();
    await expect(card.getByTestId('special-status')).toHaveText('Quoted: waiting for your answer');
    await expect(card.getByText(`Quote: $21.00 a copy, expected ${formatDate(`${expectedOn}T12:00:00Z`)}`)).toBeVisible();
    await card.getByLabel('Phone for the order').fill('5551234567');
    await page.screenshot({ path: `${SHOTS}/special-order-quoted-${width}.png`, fullPage: true });
    await card.getByRole('button', { name: 'Accept quote' }).click();
    await expect(card.getByTestId('special-status')).toHaveText('Accepted: we are ordering it');
    await card.getByRole('link', { name: 'View Order' }).click();
    await expect(page).toHaveURL(`/orders/special-${mine._id}`);
    // Named by the request's own id, not by its "special-" (which every such order shares).
    await expect(page.getByRole('heading', { name: `Order #special-${mine._id.slice(0, 8)}` })).toBeVisible();
    await expect(page.getByText(title).first()).toBeVisible();
    await expect(page.getByText('$42.00').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/special-order-accepted-${width}.png`, fullPage: true });
  });
}
