import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { appCode as totpCode } from './totp';
import { adminLogin, placeOrder, shortId, signIn, ownerToken } from './helpers';

// Staff accounts in the browser (issue 24): the owner adds a bookseller who works the order desk
// on a phone; a manager turns on two-factor sign-in and then needs the code.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const PASSWORD = 'counter-till-owl-42';
const PHONE = { width: 375, height: 812 };

async function staffSignIn(page: Page, username: string, password = PASSWORD) {
  await page.goto('/admin');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Nothing sticks out sideways at this width (a phone scrolls only up and down). */
async function fitsWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** Waits out the last 3 s of a 30 s TOTP step, so a code computed now is still current when the server checks it. */
async function steadyClock() {
  const into = Date.now() % 30_000;
  if (into > 27_000) await new Promise((r) => setTimeout(r, 30_000 - into + 200));
}

test('the owner adds a bookseller, who works an order on a phone and cannot delete books', async ({ browser, shopper, makeBook }) => {
  // The owner (the local demo owner) adds the bookseller on the Staff page.
  const owner = await browser.newPage();
  await adminLogin(owner);
  await expect(owner.getByRole('button', { name: /Demo Owner\s*Owner/ })).toBeVisible();
  await expect(owner.getByText('Grace Simmons')).toHaveCount(0);
  await expect(owner.getByRole('searchbox')).toHaveCount(0);
  await owner.getByRole('link', { name: 'Staff' }).first().click();
  await expect(owner).toHaveURL('/dashboard/staff');
  const username = `sam-${RUN}`;
  await owner.getByLabel('Username').fill(username);
  await owner.getByLabel('Display name').fill('Sam Counter');
  await owner.getByLabel('Role', { exact: true }).selectOption('bookseller');
  await owner.getByLabel('Password').fill('password1234');
  await owner.getByRole('button', { name: 'Add Staff Member' }).click();
  await expect(owner.getByRole('alert')).toContainText('too common');
  await owner.getByLabel('Password').fill(PASSWORD);
  await owner.getByRole('button', { name: 'Add Staff Member' }).click();
  await expect(owner.getByRole('heading', { name: 'Staff member added' })).toBeVisible();
  await owner.getByRole('button', { name: 'OK' }).click();
  await expect(owner.getByRole('listitem', { name: 'Sam Counter' }).filter({ hasText: username })).toBeVisible(); // a retry's earlier Sam may be listed too

  // A customer orders a book.
  const customer = await browser.newPage();
  const book = await makeBook();
  await signIn(customer, shopper.email, shopper.password);
  const orderId = await placeOrder(customer, [book]);

  // The bookseller signs in on a phone-sized page: the desk, not the figures.
  const phone = await browser.newContext({ viewport: PHONE });
  const page = await phone.newPage();
  await staffSignIn(page, username);
  await expect(page).toHaveURL('/dashboard/orders');
  await expect(page.getByRole('button', { name: /Sam Counter\s*Bookseller/ })).toBeVisible();
  await fitsWidth(page);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Dashboard menu' });
  // The desk's pages, pre-orders and special orders among them (issue 41), are a bookseller's too.
  for (const shown of ['Orders', 'Pre-orders', 'Special Orders']) await expect(menu.getByRole('link', { name: shown, exact: true })).toBeVisible();
  for (const hidden of ['Dashboard', 'Add Book', 'Import Books', 'Staff', 'Audit Log']) await expect(menu.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);

  // Processes the order: confirm it.
  await page.goto(`/dashboard/orders/${orderId}`);
  await expect(page.getByRole('heading', { name: `Order #${shortId(orderId)}` })).toBeVisible();
  await fitsWidth(page);
  await page.getByRole('group', { name: 'Order actions' }).getByRole('button', { name: 'Confirm', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByTestId('order-status').first()).toHaveText('confirmed');
  // The history names the role (the customer reads these events too); the audit log names the person, below.
  await expect(page.getByRole('list', { name: 'Order history' })).toContainText('by the bookseller');

  // Manage Books: Edit (stock counts) but no Delete, no Add New Book.
  await page.goto('/dashboard/manage-books');
  await expect(page.getByRole('link', { name: /^Edit/ }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Add New Book' })).toHaveCount(0);
  await fitsWidth(page);

  // The owner sees it in the audit log, filtered by that person.
  await owner.goto(`/dashboard/audit?actor=${username}`);
  await expect(owner.getByRole('listitem').filter({ hasText: 'order.status' }).first()).toContainText(`orders/${orderId}`);
  await phone.close();
});

test('a manager turns on two-factor sign-in and then needs the code', async ({ browser, request }) => {
  // The owner creates the manager through the API (the Staff page is the first test's).
  const owner = await ownerToken(request);
  const username = `mia-${RUN}`;
  const made = await request.post('/api/admin/staff', { headers: { Authorization: `Bearer ${owner}` }, data: { username, displayName: 'Mia Manager', role: 'manager', password: PASSWORD } });
  expect(made.status()).toBe(201);

  const phone = await browser.newContext({ viewport: PHONE });
  const page = await phone.newPage();
  await staffSignIn(page, username);
  await expect(page).toHaveURL('/dashboard');
  await page.getByRole('button', { name: /Mia Manager\s*Manager/ }).click();
  await page.getByRole('menuitem', { name: 'Two-factor sign-in' }).click();
  await expect(page).toHaveURL('/dashboard/profile');
  await page.getByRole('button', { name: 'Set Up Two-Factor Sign-In' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await fitsWidth(page);
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await steadyClock();
  await page.getByLabel('Code from the app').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Turn On' }).click();
  await expect(page.getByText('Two-factor sign-in is on.')).toBeVisible();

  // Sign out from the profile menu; the password alone no longer opens the dashboard.
  await page.getByRole('button', { name: /Mia Manager/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/admin');
  await staffSignIn(page, username);
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
  await expect(page).toHaveURL('/admin');
  // The code of the next step: the confirm spent the current one, and a code never works twice.
  await steadyClock();
  await page.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('button', { name: /Mia Manager\s*Manager/ })).toBeVisible();
  await phone.close();
});

test('a guessing spray at a staff username locks other browsers out, not the staff member’s own (its device cookie)', async ({ browser, request }) => {
  const owner = await ownerToken(request);
  const username = `kim-${RUN}`;
  const made = await request.post('/api/admin/staff', { headers: { Authorization: `Bearer ${owner}` }, data: { username, displayName: 'Kim Counter', role: 'bookseller', password: PASSWORD } });
  expect(made.status()).toBe(201);

  // Kim signs in at the counter's browser once: it keeps a device cookie, only for the sign-in route.
  const counter = await browser.newContext();
  const page = await counter.newPage();
  await staffSignIn(page, username);
  await expect(page).toHaveURL('/dashboard/orders');
  const device = (await counter.cookies()).find((c) => c.name === '__session');
  expect(device).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/auth/admin' });
  await page.getByRole('button', { name: /Kim Counter\s*Bookseller/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL('/admin');

  // Someone else sprays wrong passwords at Kim from twelve addresses (no cookie: a context of its own).
  const attacker = await browser.newContext();
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const res = await attacker.request.post('/api/auth/admin', { headers: { 'X-Forwarded-For': `203.0.113.${150 + i}` }, data: { username, password: `guess-${i}` } });
    statuses.push(res.status());
  }
  expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
  await attacker.close();

  // A browser that never signed in as Kim is turned away, even with the right password...
  const elsewhere = await browser.newPage();
  await staffSignIn(elsewhere, username);
  await expect(elsewhere.getByText('Too many login attempts. Try again later.')).toBeVisible();
  await expect(elsewhere).toHaveURL('/admin');
  await elsewhere.close();

  // ...while Kim's own browser signs in during the spray.
  await staffSignIn(page, username);
  await expect(page).toHaveURL('/dashboard/orders');
  await counter.close();
});
