import { toDoc } from '../functions/src/books/books.repo';
import { adminDb } from '../scripts/lib/admin-sdk';
import { adminLogin, signUpCustomer, type Customer } from '../scripts/lib/fixtures';

// What the API benchmarks need: an admin token, signed-in customers with verified emails, and books
// with enough stock that no order of the run can be refused for want of copies.

export type Shopper = Pick<Customer, 'email' | 'token'>;

export interface StockedBook {
  _id: string;
  newPrice: number;
}

export const adminToken = adminLogin;

/** A verified customer with room for every order the run places (the shop's limit is 10 open orders). */
export const verifiedShopper = (label: string): Promise<Shopper> => signUpCustomer(`bench-${label}`, { maxOpenOrders: 1_000_000 });

/**
 * `count` books for orders, each with a million copies, dated in 2000 so they sort after every
 * real book. Orders rotate through them, so concurrent orders rarely touch the same book document.
 */
export async function stockedBooks(count: number): Promise<StockedBook[]> {
  const db = adminDb();
  const made: StockedBook[] = [];
  for (let start = 0; start < count; start += 400) {
    const batch = db.batch();
    for (let i = start; i < Math.min(count, start + 400); i++) {
      const createdAt = new Date(Date.UTC(2000, 0, 1) - i * 60_000).toISOString();
      const newPrice = 5 + (i % 400) / 100;
      const ref = db.collection('books').doc();
      batch.set(ref, toDoc({ title: `Bench Stock ${i + 1}`, description: 'A book for the order benchmark.', category: 'fiction', trending: false, coverImage: 'book-1', oldPrice: 30, newPrice, stock: 1_000_000, isbn: undefined, author: undefined }, createdAt, createdAt));
      made.push({ _id: ref.id, newPrice });
    }
    await batch.commit();
  }
  return made;
}
