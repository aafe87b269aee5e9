import { textLink } from '../../../components/ui/button';
import { useId, type ReactNode } from 'react';
import { BROWSE_SORT_LABELS, BROWSE_SORTS, PRICE_EDGES, type BrowseSort } from '@bookstore/contract';
import { hasFilters, type BrowseFilters } from './browse-params';

const control = 'w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 focus:outline-2 focus:outline-accent';
const labelText = 'mb-1 block text-sm font-semibold text-gray-700';

const titleCase = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/** One labelled select of the bar; `className` sizes and places it in the row. */
function SelectField({ id, label, className, value, onChange, children }: {
  id: string;
  label: string;
  className: string;
  value: string | number;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className={labelText}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={control}>
        {children}
      </select>
    </div>
  );
}

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
      <SelectField id={`${id}-category`} label="Category" className="lg:w-48" value={filters.category ?? ''} onChange={(value) => onChange({ category: value || undefined })}>
        <option value="">All categories</option>
        {categories.map((c) => <option key={c} value={c}>{titleCase(c)}</option>)}
      </SelectField>
      <SelectField id={`${id}-sort`} label="Sort by" className="lg:order-last lg:ml-auto lg:w-52" value={filters.sort} onChange={(value) => onChange({ sort: value as BrowseSort })}>
        {BROWSE_SORTS.map((sort) => <option key={sort} value={sort}>{BROWSE_SORT_LABELS[sort]}</option>)}
      </SelectField>
      <SelectField id={`${id}-min`} label="Min price" className="lg:w-32" value={filters.minPrice ?? ''} onChange={(value) => onChange({ minPrice: Number(value) || undefined })}>
        <option value="">Any</option>
        {PRICE_EDGES.filter((edge) => edge > 0).map((edge) => <option key={edge} value={edge}>From ${edge}</option>)}
      </SelectField>
      <SelectField id={`${id}-max`} label="Max price" className="lg:w-32" value={filters.maxPrice ?? ''} onChange={(value) => onChange({ maxPrice: Number(value) || undefined })}>
        <option value="">Any</option>
        {/* The upper edge is exclusive (minPrice <= price < maxPrice), hence 'Under'. */}
        {PRICE_EDGES.filter((edge) => edge > (filters.minPrice ?? 0)).map((edge) => <option key={edge} value={edge}>Under ${edge}</option>)}
      </SelectField>
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
          <button type="button" onClick={onClear} className={`text-sm ${textLink}`}>
            Clear Filters
          </button>
        </div>
      )}
    </form>
  );
}
