import { describe, expect, it } from 'vitest';
import { productionOrigin, robotsTxt } from './robots';

describe('robots.txt', () => {
  it('names the sitemap with an absolute URL on the configured origin', () => {
    expect(robotsTxt('https://shop.example')).toContain('\nSitemap: https://shop.example/sitemap.xml\n');
    expect(robotsTxt('http://127.0.0.1:5000')).toMatch(/^User-agent: \*\nAllow: \/\nDisallow: \/dashboard\nDisallow: \/admin\n/);
  });
  it('takes PUBLIC_ORIGIN (reduced to its origin), else the project\'s Hosting domain', () => {
    expect(productionOrigin('my-shop', 'https://books.example.com/')).toBe('https://books.example.com');
    expect(productionOrigin('my-shop')).toBe('https://my-shop.web.app');
  });
});
