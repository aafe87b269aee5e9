import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight } from './icons';

// A carousel that costs nothing until used: slides are a CSS scroll-snap row with arrow buttons
// (1 per view below 768px, 2 from 768px, 3 from 1180px). Swiper is loaded on the first pointer,
// touch or keyboard visit and takes over the same markup, for swipe physics and keyboard paging.

interface CarouselProps {
  label: string;
  items: { key: string; node: ReactNode }[];
}

const BREAKPOINTS = { 640: { slidesPerView: 1, spaceBetween: 24 }, 768: { slidesPerView: 2, spaceBetween: 24 }, 1024: { slidesPerView: 2, spaceBetween: 32 }, 1180: { slidesPerView: 3, spaceBetween: 32 } };

export function Carousel({ label, items }: CarouselProps) {
  const root = useRef<HTMLDivElement>(null);
  const track = useRef<HTMLUListElement>(null);
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const swiperRef = useRef<{ destroy: (a: boolean, b: boolean) => void; slidePrev: () => void; slideNext: () => void } | null>(null);
  const keys = items.map((i) => i.key).join(',');

  useEffect(() => () => swiperRef.current?.destroy(true, true), []);
  // New slides (a genre change): start again without Swiper, which re-attaches on next use.
  useEffect(() => {
    swiperRef.current?.destroy(true, true);
    swiperRef.current = null;
    setEnhanced(false);
    track.current?.scrollTo({ left: 0 });
  }, [keys]);

  const enhance = () => {
    if (enhanced || swiperRef.current || !root.current) return;
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
        slidesPerView: 1,
        spaceBetween: 24,
        breakpoints: BREAKPOINTS,
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
          <button ref={prev} type="button" aria-label={`Previous in ${label}`} onClick={() => scroll(-1)} className="grid size-10 place-items-center rounded-full bg-white text-secondary shadow ring-1 ring-gray-200 hover:bg-primary">
            <ChevronLeft className="size-5" />
          </button>
          <button ref={next} type="button" aria-label={`Next in ${label}`} onClick={() => scroll(1)} className="grid size-10 place-items-center rounded-full bg-white text-secondary shadow ring-1 ring-gray-200 hover:bg-primary">
            <ChevronRight className="size-5" />
          </button>
        </div>
      )}
      <div ref={root} className="overflow-hidden" role="region" aria-roledescription="carousel" aria-label={`${label} carousel`}>
        <ul
          ref={track}
          tabIndex={0} // scrollable, so reachable by keyboard (arrow keys page it)
          className={`carousel-track flex pb-2 ${enhanced ? 'transition-transform' : 'snap-x snap-mandatory gap-6 overflow-x-auto scroll-smooth [scrollbar-width:none] lg:gap-8'}`}
        >
          {items.map((item, index) => (
            <li key={item.key} className="carousel-slide relative w-full shrink-0 snap-start md:w-[calc((100%-1.5rem)/2)] lg:w-[calc((100%-2rem)/2)] carousel:w-[calc((100%-4rem)/3)]" aria-roledescription="slide" aria-label={`${index + 1} of ${items.length}`}>
              {item.node}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function perView(): number {
  const w = window.innerWidth;
  return w >= 1180 ? 3 : w >= 768 ? 2 : 1;
}
