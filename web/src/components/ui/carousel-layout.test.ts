import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { carouselCss, layoutAt } from './carousel-layout';

describe('carousel layout', () => {
  it('shows 1 slide below 768 px, 2 from 768 px, 3 from 1180 px (the spec)', () => {
    expect([375, 640, 767, 768, 1024, 1179, 1180, 1440].map((w) => layoutAt(w).slidesPerView)).toEqual([1, 1, 1, 2, 2, 2, 3, 3]);
  });
  it('generates the pre-Swiper CSS from the same breakpoints', () => {
    const css = carouselCss();
    expect(css).toContain('@media (min-width:1180px){.carousel-track:not([data-enhanced]){gap:32px}');
    expect(css).toContain('width:calc((100% - 64px) / 3)');
    expect(css.startsWith('.carousel-track:not([data-enhanced]){gap:24px}')).toBe(true);
  });
  it('carousel.css is that CSS (a stylesheet, not a <style> in the body: valid HTML)', () => {
    const file = readFileSync(new URL('./carousel.css', import.meta.url), 'utf8').replace(/\/\*[^*]*\*\/\n/, '').replace(/\n/g, '');
    expect(file).toBe(carouselCss());
  });
});
