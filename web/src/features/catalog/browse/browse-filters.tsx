import { useId } from 'react';
import { SORTS, hasFilters, type BrowseFilters, type BrowseSort } from './browse-params';

const control = 'w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 focus:outline-2 focus:outline-secondary';
const labelText = 'mb-1 block text-sm font-semibold text-gray-700';

const titleCase = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/**
 * Category, sort and 'In stock only' apply at once; the price range applies on 'Apply' (or Enter),
 * so typing a price does not fire a request per keystroke. Every change becomes a new URL.
 */
export function BrowseFiltersBar({ filters, categories, onChange, onClear }: {
  filters: BrowseFilters;
  categories: readonly string[];
  onChange: (change: Partial<BrowseFilters>) => void;
  onClear: () => void;
}) {
  const id = useId();
  const price = (value: FormDataEntryValue | null) => {
    const text = String(value ?? '').trim();
    return text === '' || Number.isNaN(Number(text)) ? undefined : Math.max(0, Number(text));
  };
  return (
    <form
      aria-label="Filter and sort books"
      // Remount when the URL's prices change (Back, Clear filters), so the inputs show them.
      key={`${filters.minPrice ?? ''}-${filters.maxPrice ?? ''}`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        onChange({ minPrice: price(data.get('minPrice')), maxPrice: price(data.get('maxPrice')) });
      }}
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
          {SORTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
        </select>
      </div>
      <fieldset className="col-span-2 min-w-0">
        <legend className={labelText}>Price</legend>
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-min`} className="sr-only">Minimum price</label>
          <span className="relative w-full lg:w-28">
            <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-sm text-gray-600" aria-hidden="true">$</span>
            <input id={`${id}-min`} name="minPrice" type="number" inputMode="decimal" min="0" max="10000" step="0.01" placeholder="Min" defaultValue={filters.minPrice} className={`${control} pl-6`} />
          </span>
          <span className="text-gray-600" aria-hidden="true">–</span>
          <label htmlFor={`${id}-max`} className="sr-only">Maximum price</label>
          <span className="relative w-full lg:w-28">
            <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-sm text-gray-600" aria-hidden="true">$</span>
            <input id={`${id}-max`} name="maxPrice" type="number" inputMode="decimal" min="0" max="10000" step="0.01" placeholder="Max" defaultValue={filters.maxPrice} className={`${control} pl-6`} />
          </span>
          <button type="submit" className="shrink-0 rounded-md bg-secondary px-4 py-2 text-sm font-semibold text-white hover:bg-blue-900">
            Apply<span className="sr-only"> price range</span>
          </button>
        </div>
      </fieldset>
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
