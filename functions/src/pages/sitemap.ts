import { escapeHtml } from '../../../web/src/server/document';

// sitemaps.org XML: a urlset of pages, or (above one file's worth) an index of urlset files.

export function urlset(urls: { loc: string; lastmod?: string }[]): string {
  const items = urls.map(
    (u) => `  <url><loc>${escapeHtml(u.loc)}</loc>${u.lastmod ? `<lastmod>${escapeHtml(u.lastmod.slice(0, 10))}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</urlset>\n`;
}

export function sitemapIndex(locs: string[]): string {
  const items = locs.map((loc) => `  <sitemap><loc>${escapeHtml(loc)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`;
}
