import { lineProblem, type CartItem, type UnavailableFlags } from '../../features/cart/cart-rules';
import { ProblemBadge } from '../../features/cart/unavailable-notice';
import { money } from '../../lib/format';

/** The checkout's left column: the cart's books, each with why it cannot be ordered if it cannot. */
export function CheckoutItems({ items, flags }: { items: CartItem[]; flags: UnavailableFlags }) {
  return (
    <div className="text-gray-700">
      <p className="text-lg font-medium">Personal Details</p>
      <p>Please fill out all the fields.</p>
      <h2 className="mt-6 font-semibold text-gray-900">Your Items</h2>
      <ul className="mt-2 divide-y divide-gray-100" aria-label="Your items">
        {items.map((item) => {
          const problem = lineProblem(item, flags);
          return (
            <li key={item._id} className="flex items-start justify-between gap-3 py-2">
              <span className="min-w-0">
                <span className={`block ${problem ? 'text-gray-500' : 'text-gray-900'}`}>{item.title}</span>
                {problem && <ProblemBadge problem={problem} />}
              </span>
              <span className={problem ? 'text-gray-500 line-through' : 'font-medium text-gray-900'}>{money(item.newPrice)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
