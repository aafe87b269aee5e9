import type { APIRequestContext, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, ownerToken, test, uniqueTitle } from './fixtures';
import { adminLogin, noHorizontalOverflow } from './helpers';

// The tills' card readers (issue 57) at a phone's 375 px (cards) and a desk's 1280 px (a table):
// the owner opens 'Card Readers' from the Counter, registers the stand-in's simulated reader
// (`simulated-wpe`) for a till of the test's own, sees it listed, is told the API's message for a
// code Stripe does not know, and removes the reader after confirming. Only this test's readers are
// touched (counter-terminal.spec registers its own for till-1).

const SHOTS = 'artifacts/screenshots';
/** Registering or removing goes through the Functions emulator to the Stripe stand-in: a wait, not a measure. */
const ROUND_TRIP = { timeout: 30_000 };

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes[0]?.html.slice(0, 80)}`)).toEqual([]);
}

/** This test's readers still registered (by label), so a failed run leaves none behind. */
async function removeLeftovers(request: APIRequestContext, label: string) {
  const headers = { Authorization: `Bearer ${await ownerToken(request)}` };
  const { readers } = (await (await request.get('/api/admin/readers', { headers })).json()) as { readers: { _id: string; label: string }[] };
  for (const r of readers.filter((x) => x.label === label)) await request.delete(`/api/admin/readers/${r._id}`, { headers });
}

for (const width of [375, 1280]) {
  test(`register, list and remove a till's card reader at ${width}px`, async ({ page, request }) => {
    const tillId = `till-e2e-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const label = uniqueTitle('Reader');
    await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
    try {
      await adminLogin(page);
      await page.goto('/dashboard/counter');
      await page.getByRole('link', { name: 'Card Readers' }).click();
      await expect(page).toHaveURL('/dashboard/counter/readers');
      await expect(page.getByRole('heading', { name: 'Card Readers', exact: true })).toBeVisible();
      // The till defaults to this device's (a fresh browser: the counter's default till-1).
      await expect(page.getByLabel('Till', { exact: true })).toHaveValue('till-1');

      // A code Stripe does not know: the API's message, and nothing registered.
      await page.getByLabel('Registration code').fill('purple-cat-lamp');
      await page.getByLabel('Label', { exact: true }).fill(label);
      await page.getByLabel('Till', { exact: true }).fill(tillId);
      await page.getByRole('button', { name: 'Register Reader' }).click();
      const refused = page.getByRole('alert').filter({ hasText: 'purple-cat-lamp' });
      await expect(refused).toContainText('Stripe does not know the registration code purple-cat-lamp', ROUND_TRIP);
      await expect(page.getByText(label)).toHaveCount(0);

      await page.getByLabel('Registration code').fill('simulated-wpe');
      await page.getByRole('button', { name: 'Register Reader' }).click();
      await expect(page.getByRole('status').filter({ hasText: `Registered ${label} for till ${tillId}.` })).toBeVisible(ROUND_TRIP);
      await expect(refused).toHaveCount(0);
      // Phones: a card per reader; tablets and up: a table row.
      const listed = width < 768 ? page.getByRole('list', { name: 'Card readers' }).getByRole('listitem').filter({ hasText: label }) : page.getByRole('row').filter({ hasText: label });
      await expect(listed).toBeVisible();
      await expect(listed).toContainText(tillId);
      await expect(listed).toContainText('Simulated WisePOS E');
      await expect(listed).toContainText(/tmr_\w+/);
      await noHorizontalOverflow(page);
      await axeClean(page);
      await page.screenshot({ path: `${SHOTS}/card-readers-${width}.png`, fullPage: true });

      // Backing out of the confirmation keeps it; confirming removes it, at Stripe and here.
      await listed.getByRole('button', { name: `Remove ${label}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect(listed).toBeVisible();
      await listed.getByRole('button', { name: `Remove ${label}` }).click();
      await expect(page.getByRole('dialog')).toContainText('Remove this card reader?');
      await page.screenshot({ path: `${SHOTS}/card-readers-remove-${width}.png` });
      await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
      await expect(listed).toHaveCount(0, ROUND_TRIP);
      await expect(page.getByRole('button', { name: `Remove ${label}` })).toHaveCount(0);
      await axeClean(page);
    } finally {
      await removeLeftovers(request, label);
    }
  });
}
