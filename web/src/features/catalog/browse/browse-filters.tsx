import { useId } from 'react';
import { BROWSE_SORT_LABELS, BROWSE_SORTS, PRICE_EDGES, type BrowseSort } from '@bookstore/contract';
import { hasFilters, type BrowseFilters } from './browse-params';

const control = 'w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 focus:outline-2 focus:outline-secondary';
const labelText = 'mb-1 block text-sm font-semibold text-gray-700';

const titleCase = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/**
 * Every control applies at once and becomes a new URL. Prices are the contract's edges
 * (PRICE_EDGES): the server filters on stored price bands, so any edge pair is one indexed query.
 */
export function BrowseFiltersBar({ filters, categories, onChange, onClear }: {
  filters: BrowseFilters;
  categories: readonly string[];
  onChange: (change: Partial<BrowseFilters>) => void;
  onClear: () => void;
}) {
  const id = useId();
  return (
    <form
      aria-label="Filter and sort books"
      onSubmit={(e) => e.preventDefault()}
      className="mb-8 grid grid-cols-2 gap-4 rounded-lg border border-gray-200 bg-gray-50 p-4 lg:flex lg:flex-wrap lg:items-end"
    >
      <div className="lg:w-48">
        <label htmlFor={`${id}-category`} className={labelText}>Category</label>
        <select
          id={`${id}-category`}
          value={filters.category ?? ''}
          onChange={(e) => onChange({ category: e.target.value || undefined })}
          className={control}
        >
          <option value="">All categories</option>
          {categories.map((c) => <option key={c} value={c}>{titleCase(c)}</option>)}
        </select>
      </div>
      <div className="lg:order-last lg:ml-auto lg:w-52">
        <label htmlFor={`${id}-sort`} className={labelText}>Sort by</label>
        <select
          id={`${id}-sort`}
          value={filters.sort}
          onChange={(e) => onChange({ sort: e.target.value as BrowseSort })}
          className={control}
        >
          {BROWSE_SORTS.map((sort) => <option key={sort} value={sort}>{BROWSE_SORT_LABELS[sort]}</option>)}
        </select>
      </div>
      <div className="lg:w-32">
        <label htmlFor={`${id}-min`} className={labelText}>Min price</label>
        <select
          id={`${id}-min`}
          value={filters.minPrice ?? ''}
          onChange={(e) => onChange({ minPrice: Number(e.target.value) || undefined })}
          className={control}
        >
          <option value="">Any</option>
          {PRICE_EDGES.filter((edge) => edge > 0).map((edge) => <option key={edge} value={edge}>From ${edge}</option>)}
        </select>
      </div>
      <div className="lg:w-32">
        <label htmlFor={`${id}-max`} className={labelText}>Max price</label>
        <select
          id={`${id}-max`}
          value={filters.maxPrice ?? ''}
          onChange={(e) => onChange({ maxPrice: Number(e.target.value) || undefined })}
          className={control}
        >
          <option value="">Any</option>
          {/* The upper edge is exclusive (minPrice <= price < maxPrice), hence 'Under'. */}
          {PRICE_EDGES.filter((edge) => edge > (filters.minPrice ?? 0)).map((edge) => <option key={edge} value={edge}>Under ${edge}</option>)}
        </select>
      </div>
      <div className="flex items-center gap-2 lg:h-[38px]">
        <input
          id={`${id}-stock`}
          type="checkbox"
          checked={Boolean(filters.inStock)}
          onChange={(e) => onChange({ inStock: e.target.checked || undefined })}
          className="size-4 rounded border-gray-300 accent-secondary"
        />
        <label htmlFor={`${id}-stock`} className="text-sm font-semibold text-gray-700">In stock only</label>
      </div>
      {hasFilters(filters) && (
        <div className="flex items-center justify-end lg:h-[38px] lg:justify-start">
          <button type="button" onClick={onClear} className="text-sm font-semibold text-blue-800 underline-offset-2 hover:underline">
            Clear filters
          </button>
        </div>
      )}
    </form>
  );
}
