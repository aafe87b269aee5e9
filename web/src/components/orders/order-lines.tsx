import { countryName, formatPublicationDate, type Order } from '@bookstore/contract';
import { Link } from 'react-router-dom';
import { coverUrl } from '../../lib/covers';
import { money } from '../../lib/format';

/** An order's lines as they were sold (title, price and cover from the order, not the catalogue). */
export function OrderLines({ order, bookHref, compact = false }: { order: Order; bookHref?: (bookId: string) => string; compact?: boolean }) {
  const img = compact ? 'h-12 w-8' : 'h-18 w-12';
  return (
    <ul className="divide-y divide-gray-100" aria-label="Items">
      {order.items.map((line, i) => (
        <li key={`${line.bookId}-${i}`} className="flex items-center gap-3 py-2">
          <img src={coverUrl(line.coverImage)} alt="" width={compact ? 32 : 48} height={compact ? 48 : 72} loading="lazy" className={`${img} shrink-0 rounded border border-gray-200 bg-gray-100 object-cover`} />
          <span className="min-w-0 flex-1 text-sm">
            {bookHref ? (
              <Link to={bookHref(line.bookId)} className="font-medium text-gray-900 hover:text-accent hover:underline">{line.title}</Link>
            ) : (
              <span className="font-medium text-gray-900">{line.title}</span>
            )}
            <span className="block text-gray-600">Qty 1</span>
            {line.preorder && <span className="block text-gray-600">{preorderText(line)}</span>}
          </span>
          <span className="shrink-0 text-sm font-medium tabular-nums">{money(line.unitPrice)}</span>
        </li>
      ))}
    </ul>
  );
}

/** A pre-order line's state (issue 41): waiting for its copy (and when the book is out), or its copy set aside. */
export function preorderText(line: Order['items'][number]): string {
  if (line.preorder === 'allocated') return 'Pre-order: copy set aside';
  return `Pre-order: waiting${line.publishedOn ? ` (publishes ${formatPublicationDate(line.publishedOn)})` : ''}`;
}

/**
 * The delivery address on one line; a pickup order has none. The country's name for a code ('US' is
 * United States); a country typed before issue 36 ('USA') as it was typed.
 */
export function formatAddress(address: Order['address']): string {
  if (!address) return 'Collected in the shop';
  return [address.street, address.city, address.state, address.zipcode, countryName(address.country)].filter(Boolean).join(', ');
}
