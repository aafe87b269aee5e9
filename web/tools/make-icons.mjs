// Draws the app icons (web/public/icons/*.png) from the favicon's design with the machine's Chromium:
// no network, no image library. Run again only when the logo changes: `node web/tools/make-icons.mjs`.
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const OUT = new URL('../public/icons/', import.meta.url);
const NAVY = '#0D0842';
const GOLD = '#FFCE1A';
// The favicon's open book (web/public/favicon.svg), on a 32-unit grid.
const BOOK = 'M8 8h7a3 3 0 0 1 3 3v13a2 2 0 0 0-2-2H8zM24 8h-3a3 3 0 0 0-3 3v13a2 2 0 0 1 2-2h4z';

/** `rounded`: the favicon as is (corners transparent). `maskable`: full-bleed navy, the book inside the 80% safe zone. */
function svg(size, kind) {
  const background = kind === 'maskable' ? `<rect width="32" height="32" fill="${NAVY}"/>` : `<rect width="32" height="32" rx="6" fill="${NAVY}"/>`;
  // The book spans x 8..24, y 8..24 (16 units); maskable keeps it within the central 40% circle's box.
  const book = kind === 'maskable' ? `<g transform="translate(16 16) scale(0.75) translate(-16 -16)"><path d="${BOOK}" fill="${GOLD}"/></g>` : `<path d="${BOOK}" fill="${GOLD}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32">${background}${book}</svg>`;
}

const ICONS = [
  { file: 'icon-192.png', size: 192, kind: 'rounded' },
  { file: 'icon-512.png', size: 512, kind: 'rounded' },
  { file: 'maskable-512.png', size: 512, kind: 'maskable' },
  { file: 'apple-touch-icon-180.png', size: 180, kind: 'maskable' }, // iOS rounds the corners itself
];

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg(icon.size, icon.kind)}</body></html>`);
    await page.locator('svg').screenshot({ path: new URL(icon.file, OUT).pathname, omitBackground: true });
    await page.close();
    console.log(`web/public/icons/${icon.file} (${icon.size}x${icon.size})`);
  }
} finally {
  await browser.close();
}
