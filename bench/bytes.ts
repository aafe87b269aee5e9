import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../playwright.config';

// Bytes per route from a real first visit in Chromium (empty cache), as transferred (gzip/br as
// served by Hosting), until the network is idle, with no interaction.

export interface RouteBytes {
  route: string;
  js: number;
  css: number;
  images: number;
  apiJson: number;
  fonts: number;
  document: number;
  total: number;
  requests: number;
}

export async function measureRouteBytes(base: string, routes: string[], adminToken: string): Promise<RouteBytes[]> {
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const results: RouteBytes[] = [];
  try {
    for (const route of routes) {
      const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
      if (route.startsWith('/dashboard')) {
        await context.addInitScript((token) => {
          localStorage.setItem('bookstore.admin', JSON.stringify({ token, expiresAt: Date.now() + 3_600_000 }));
        }, adminToken);
      }
      const page = await context.newPage();
      const row: RouteBytes = { route, js: 0, css: 0, images: 0, apiJson: 0, fonts: 0, document: 0, total: 0, requests: 0 };
      const pending: Promise<void>[] = [];
      page.on('requestfinished', (request) => {
        pending.push(
          request.sizes().then((sizes) => {
            const bytes = sizes.responseBodySize + sizes.responseHeadersSize;
            const type = request.resourceType();
            const url = request.url();
            if (type === 'script') row.js += bytes;
            else if (type === 'stylesheet') row.css += bytes;
            else if (type === 'image') row.images += bytes;
            else if (type === 'font') row.fonts += bytes;
            else if (type === 'document') row.document += bytes;
            else if (url.includes('/api/')) row.apiJson += bytes;
            row.total += bytes;
            row.requests += 1;
          }),
        );
      });
      await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
      await page.waitForTimeout(300);
      await Promise.all(pending);
      results.push(row);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}
