import { expect, test, type Locator } from '@playwright/test';

// The spec: carousels show 1 slide on narrow screens, 2 from 768 px, 3 from 1180 px. Counted as a
// shopper sees them, before and after Swiper takes over the markup.

async function fullyVisibleSlides(carousel: Locator): Promise<number> {
  return carousel.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return Array.from(el.querySelectorAll('.carousel-slide')).filter((slide) => {
      const r = slide.getBoundingClientRect();
      return r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1;
    }).length;
  });
}

for (const [width, expected] of [[375, 1], [800, 2], [1280, 3]] as const) {
  test(`carousels show ${expected} book${expected > 1 ? 's' : ''} at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    // The cards are served with the page (issue 38); Swiper loads on a hover the app sees: once it owns the page.
    await expect(page.getByLabel('Search books')).toBeEnabled();
    for (const name of ['Top Sellers', 'Recommended for you']) {
      const carousel = page.getByRole('region', { name: `${name} carousel` });
      await expect(carousel.getByRole('article').first()).toBeVisible();
      expect(await fullyVisibleSlides(carousel), `${name}, scroll-snap`).toBe(expected);
      await carousel.scrollIntoViewIfNeeded();
      await carousel.hover(); // loads Swiper, which takes over the same slides
      await expect(carousel.locator('[data-enhanced]')).toBeAttached();
      await expect.poll(() => fullyVisibleSlides(carousel), { message: `${name}, Swiper` }).toBe(expected);
    }
  });
}
