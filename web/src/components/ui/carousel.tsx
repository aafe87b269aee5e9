import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CAROUSEL_BREAKPOINTS, layoutAt } from './carousel-layout';
import { ChevronLeft, ChevronRight } from './icons';
// Slide widths before Swiper: a stylesheet generated from the same breakpoints (carousel-layout.ts).
import './carousel.css';

// A carousel that costs nothing until used: slides are a CSS scroll-snap row with arrow buttons,
// laid out from CAROUSEL_BREAKPOINTS. Swiper (the product's carousel, ~30 KB) is loaded on the first
// pointer, touch or keyboard visit and takes over the same markup with the same breakpoints, for
// swipe physics and keyboard paging. See docs/decisions/004-carousel-handover.md.

interface CarouselProps {
  label: string;
  items: { key: string; node: ReactNode }[];
  /** Placeholders while loading: same layout and arrow row (no shift later), nothing to operate. */
  inert?: boolean;
}

export function Carousel({ label, items, inert = false }: CarouselProps) {
  const root = useRef<HTMLDivElement>(null);
  const track = useRef<HTMLUListElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const swiperRef = useRef<{ destroy: (a: boolean, b: boolean) => void; slidePrev: () => void; slideNext: () => void } | null>(null);
  const keys = items.map((i) => i.key).join(',');

  useEffect(() => () => swiperRef.current?.destroy(true, true), []);
  // New slides (a genre change): start again without Swiper, which re-attaches on next use. Not on
  // the first slides: scrolling a fresh track would only force a layout in the middle of the page's start.
  const shownKeys = useRef(keys);
  useEffect(() => {
    if (shownKeys.current === keys) return;
    shownKeys.current = keys;
    swiperRef.current?.destroy(true, true);
    swiperRef.current = null;
    setEnhanced(false); // follows Swiper's teardown (external state) in the same step
    track.current?.scrollTo({ left: 0 });
  }, [keys]);

  const enhance = () => {
    if (inert || enhanced || swiperRef.current || !root.current) return;
    const el = track.current;
    const start = el ? Math.round(el.scrollLeft / Math.max(1, el.clientWidth / perView())) : 0;
    void import('swiper').then(({ default: Swiper }) => {
      if (!root.current || swiperRef.current) return;
      el?.scrollTo({ left: 0, behavior: 'instant' });
      setEnhanced(true);
      swiperRef.current = new Swiper(root.current, {
        wrapperClass: 'carousel-track',
        slideClass: 'carousel-slide',
        initialSlide: start,
        breakpoints: CAROUSEL_BREAKPOINTS,
      });
    });
  };

  const scroll = (direction: 1 | -1) => {
    if (swiperRef.current) return direction === 1 ? swiperRef.current.slideNext() : swiperRef.current.slidePrev();
    const el = track.current;
    if (el) el.scrollBy({ left: direction * (el.clientWidth / perView()), behavior: 'smooth' });
  };

  return (
    <div
      className="relative"
      onPointerEnter={enhance}
      onTouchStart={enhance}
      onFocus={enhance}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight') scroll(1);
        else if (e.key === 'ArrowLeft') scroll(-1);
      }}
    >
      {items.length > 1 && (
        <div className="mb-3 flex justify-end gap-2">
          <button type="button" disabled={inert} aria-label={`Previous in ${label}`} onClick={() => scroll(-1)} className="grid size-10 place-items-center rounded-full bg-white text-secondary shadow ring-1 ring-gray-200 hover:bg-primary disabled:opacity-50">
            <ChevronLeft className="size-5" />
          </button>
          <button type="button" disabled={inert} aria-label={`Next in ${label}`} onClick={() => scroll(1)} className="grid size-10 place-items-center rounded-full bg-white text-secondary shadow ring-1 ring-gray-200 hover:bg-primary disabled:opacity-50">
            <ChevronRight className="size-5" />
          </button>
        </div>
      )}
      <div ref={root} className="overflow-hidden" {...(inert ? {} : { role: 'region', 'aria-roledescription': 'carousel', 'aria-label': `${label} carousel` })}>
        <ul
          ref={track}
          tabIndex={inert ? -1 : 0} // scrollable, so reachable by keyboard (arrow keys page it)
          data-enhanced={enhanced || undefined}
          className={`carousel-track flex pb-2 ${enhanced ? 'transition-transform' : 'snap-x snap-mandatory overflow-x-auto scroll-smooth [scrollbar-width:none]'}`}
        >
          {/* A slide out of view is not styled, laid out or painted until it nears the viewport: a
              phone shows one of twelve, and the page's first layout was its longest task (issue 60). */}
          {items.map((item, index) => (
            <li key={item.key} className="carousel-slide relative shrink-0 snap-start [contain-intrinsic-block-size:auto_232px] [content-visibility:auto]" aria-roledescription="slide" aria-label={`${index + 1} of ${items.length}`}>
              {item.node}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

const perView = () => layoutAt(window.innerWidth).slidesPerView;
