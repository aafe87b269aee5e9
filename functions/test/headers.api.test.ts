import { describe, expect, it } from 'vitest';
import { BASE } from './helpers';

describe('Hosting security headers', () => {
  it('pages carry a strict CSP, nosniff, a referrer policy and no framing', async () => {
    // /books/x is a book page from the `pages` function (404: no such book): same headers.
    for (const [path, status] of [['/', 200], ['/books', 200], ['/books/x', 404], ['/dashboard', 200]] as const) {
      const res = await fetch(`${BASE}${path}`);
      expect(res.status, path).toBe(status);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('index.html is revalidated and hashed assets are immutable', async () => {
    const html = await fetch(`${BASE}/`);
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const asset = /\/assets\/[^"]+\.js/.exec(await html.text())![0];
    const res = await fetch(`${BASE}${asset}`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
