// The carousels' one set of breakpoints (spec: 1 slide on narrow screens, 2 from 768 px, 3 from
// 1180 px; breakpoints 640, 768, 1024, 1180). Swiper gets it as `breakpoints`; the CSS that lays out
// the slides before Swiper loads is generated from it, so the two can never disagree.

export const CAROUSEL_BREAKPOINTS = {
  0: { slidesPerView: 1, spaceBetween: 24 },
  640: { slidesPerView: 1, spaceBetween: 24 },
  768: { slidesPerView: 2, spaceBetween: 24 },
  1024: { slidesPerView: 2, spaceBetween: 32 },
  1180: { slidesPerView: 3, spaceBetween: 32 },
} as const;

type Layout = (typeof CAROUSEL_BREAKPOINTS)[keyof typeof CAROUSEL_BREAKPOINTS];

export function layoutAt(width: number): Layout {
  let layout: Layout = CAROUSEL_BREAKPOINTS[0];
  for (const [min, value] of Object.entries(CAROUSEL_BREAKPOINTS)) if (width >= Number(min)) layout = value;
  return layout;
}

/** Slide widths and gaps for the scroll-snap row Swiper later takes over (it then sets its own). */
export function carouselCss(): string {
  return Object.entries(CAROUSEL_BREAKPOINTS)
    .map(([min, { slidesPerView: n, spaceBetween: gap }]) => {
      const rules = `.carousel-track:not([data-enhanced]){gap:${gap}px}.carousel-track:not([data-enhanced])>.carousel-slide{width:calc((100% - ${(n - 1) * gap}px) / ${n})}`;
      return Number(min) === 0 ? rules : `@media (min-width:${min}px){${rules}}`;
    })
    .join('');
}
