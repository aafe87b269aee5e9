import { bookDoc } from '../functions/src/books/book-doc';
import { adminDb, commitInBatches } from '../scripts/lib/admin-sdk';
import { signUpCustomer, type Customer } from '../scripts/lib/fixtures';

// What the API benchmarks need: signed-in customers with verified emails, and books
// with enough stock that no order of the run can be refused for want of copies.

export type Shopper = Pick<Customer, 'email' | 'token'>;

export interface StockedBook {
  _id: string;
  newPrice: number;
}

/** A verified customer with room for every order the run places (the shop's limit is 10 open orders). */
export const verifiedShopper = (label: string): Promise<Shopper> => signUpCustomer(`bench-${label}`, { maxOpenOrders: 1_000_000 });

/**
 * `count` books for orders, each with a million copies, dated in 2000 so they sort after every
 * real book. Orders rotate through them, so concurrent orders rarely touch the same book document.
 */
export async function stockedBooks(count: number): Promise<StockedBook[]> {
  const made = Array.from({ length: count }, (_, i) => ({ ref: adminDb().collection('books').doc(), i, newPrice: 5 + (i % 400) / 100 }));
  await commitInBatches(made.map(({ ref, i, newPrice }) => (batch) => {
    const createdAt = new Date(Date.UTC(2000, 0, 1) - i * 60_000).toISOString();
    batch.set(ref, bookDoc({ title: `Bench Stock ${i + 1}`, description: 'A book for the order benchmark.', category: 'fiction', trending: false, coverImage: 'book-1', oldPrice: 30, newPrice, stock: 1_000_000 }, { createdAt, updatedAt: createdAt }));
  }));
  return made.map(({ ref, newPrice }) => ({ _id: ref.id, newPrice }));
}
