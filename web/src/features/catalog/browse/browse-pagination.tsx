import { buttonClass, unavailableButtonClass } from '../../../components/ui/button';
import { Link } from 'react-router-dom';
import { ChevronLeft, ChevronRight } from '../../../components/ui/icons';

const button = buttonClass('secondary', 'sm');
const disabled = unavailableButtonClass('sm');

/** Previous / Page N / Next; `previous` and `next` are URLs, or null at either end. */
export function BrowsePagination({ page, previous, next }: { page: number; previous: string | null; next: string | null }) {
  return (
    <nav aria-label="Pagination" className="mt-12 flex items-center justify-between gap-4 border-t border-gray-200 pt-6">
      {previous !== null ? (
        <Link to={previous} className={button} rel="prev"><ChevronLeft className="size-4" />Previous</Link>
      ) : (
        <span className={disabled} aria-disabled="true"><ChevronLeft className="size-4" />Previous</span>
      )}
      <p className="text-sm text-gray-700">Page {page}</p>
      {next !== null ? (
        <Link to={next} className={button} rel="next">Next<ChevronRight className="size-4" /></Link>
      ) : (
        <span className={disabled} aria-disabled="true">Next<ChevronRight className="size-4" /></span>
      )}
    </nav>
  );
}
