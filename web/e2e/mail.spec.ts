import { getApps, initializeApp } from 'firebase-admin/app';
import { FieldValue, getFirestore } from 'firebase-admin/firestore';
import { INBOX_URL } from '../../scripts/lib/env';
import { expect, test } from './fixtures';
import { adminLogin, noHorizontalOverflow, placeOrder, signIn } from './helpers';

// The shop's own mail in the browser (issue 36): a newcomer's order mail on the developer's inbox
// page (the local SMTP server `npm start` runs), and the dashboard's Failed Mail page.

const db = () => getFirestore(getApps()[0] ?? initializeApp({ projectId: 'demo-bookstore' }));
const SHOTS = 'artifacts/screenshots';
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

// Beside the other browser tests: they send mail too, so the developer looks for their own
// address with the page's To filter (the page lists 50 at a time, newest first).
test("an order's mail arrives in the developer's inbox, with its subject, recipient and lines", async ({ page, shopper: customer, makeBook }) => {
  await signIn(page, customer.email, customer.password);
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
  const book = await makeBook({ stock: 2 });
  const orderId = await placeOrder(page, [book]);
  const short = orderId.slice(0, 8).toUpperCase();
  const inbox = await page.context().newPage();
  await inbox.goto(INBOX_URL);
  await inbox.getByLabel('To').fill(customer.email);
  await inbox.getByRole('button', { name: 'Show' }).click();
  await expect(inbox).toHaveURL(/[?&]to=/);
  // The page lists what the SMTP server received so far: reload until the mail is there (sendMail runs on its own time).
  await expect(async () => {
    await inbox.reload();
    await expect(inbox.getByText(`We have received your order (order ${short})`)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  const mail = inbox.locator('details').filter({ hasText: `(order ${short})` });
  await expect(mail).toContainText(`to ${customer.email}`);
  await mail.locator('summary').click();
  await expect(mail.locator('pre')).toContainText(book.title);
  await expect(mail.getByTitle(`We have received your order (order ${short}) (HTML)`)).toBeVisible();
  for (const width of [375, 1280]) {
    await inbox.setViewportSize({ width, height: 900 });
    await noHorizontalOverflow(inbox);
    await inbox.screenshot({ path: `${SHOTS}/inbox-${width}.png`, fullPage: false });
  }
});

test('the owner sees mail that could not be sent on the Failed Mail page, phone and desktop', async ({ page }) => {
  // A mail as sendMail leaves it after its last try (created in that state, so the trigger leaves it alone).
  const id = `e2e-failed-${RUN}`;
  await db().collection('mail').doc(id).create({
    to: `gone-${RUN}@example.com`,
    message: { subject: `Your order is on its way (order ${RUN.slice(0, 8).toUpperCase()})`, text: 'x', html: '<p>x</p>' },
    delivery: { state: 'ERROR', attempts: 8, error: "Can't send mail - all recipients were rejected: 451 4.3.0 Mailbox busy", startTime: FieldValue.serverTimestamp(), endTime: FieldValue.serverTimestamp(), leaseExpireTime: null },
  });
  await adminLogin(page);
  await page.getByRole('link', { name: 'Failed Mail' }).first().click();
  await expect(page).toHaveURL('/dashboard/mail');
  await expect(page.getByRole('heading', { name: 'Failed Mail' })).toBeVisible();
  const item = page.getByRole('listitem').filter({ hasText: id });
  await expect(item).toContainText(`gone-${RUN}@example.com`);
  await expect(item).toContainText('8 of 8');
  await expect(item).toContainText('451 4.3.0 Mailbox busy');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await noHorizontalOverflow(page);
    await item.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/failed-mail-${width}.png` });
  }
  // Send Again (issue 58): queued for the sweeper, once; the mail is then waiting, not failed.
  await item.getByRole('button', { name: 'Send Again' }).click();
  await expect(item.getByRole('status')).toHaveText('Queued again: it goes out within a minute.');
  await expect(item.getByRole('button', { name: 'Send Again' })).toBeDisabled();
  expect((await db().collection('mail').doc(id).get()).data()?.delivery).toMatchObject({ state: expect.stringMatching(/^(RETRY|PROCESSING|SUCCESS)$/), resentBy: 'admin' });
});
