import { buttonClass } from './button';

interface CursorPagerProps {
  /** 1-based: the pages walked so far. */
  page: number;
  /** Whether the server said there is a next page. */
  hasNext: boolean;
  /** While the next page loads (the old rows stay on screen), both buttons wait. */
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** Previous / Page n / Next under a server-paged admin list (cursors walked forward, popped back). */
export function CursorPager({ page, hasNext, busy, onPrevious, onNext }: CursorPagerProps) {
  return (
    <div className="flex items-center justify-between gap-3 border-t border-gray-100 px-4 py-3 sm:px-6">
      <button type="button" onClick={onPrevious} disabled={page === 1 || busy} className={buttonClass('secondary', 'sm')}>
        Previous
      </button>
      <span className="text-sm text-gray-600">Page {page}</span>
      <button type="button" onClick={onNext} disabled={!hasNext || busy} className={buttonClass('secondary', 'sm')}>
        Next
      </button>
    </div>
  );
}
