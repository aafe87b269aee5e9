import { expect, test as base } from '@playwright/test';
import { newCustomer, ownerToken, type ApiBook } from './helpers';

export { ownerToken };

// Per-test data for browser tests that run beside others (docs/testing.md): a customer of the
// test's own and books of its own, made through the API and deleted after the test. Import `test`
// from here instead of '@playwright/test' to use them.

export interface Shopper { email: string; password: string; token: string }

/** The fields of POST /api/books/create-book a test may set; the rest get in-stock defaults. */
export type BookFields = Record<string, unknown> & { title?: string; stock?: number; newPrice?: number | string; oldPrice?: number; category?: string };

let seq = 0;
/** A title no other test (or run) uses, so a search or filter finds exactly this test's book. */
export const uniqueTitle = (prefix: string) => `${prefix} ${Date.now().toString(36)}${process.pid.toString(36)}${(seq += 1)}`;

interface Fixtures {
  /** A verified customer of this test's own: its cart, orders and open-order limit are its alone. */
  shopper: Shopper;
  /**
   * Makes a book of this test's own through the API (stock 5, $12.50 unless given), deleted after
   * the test. It is the newest book while it exists: assert on it by title or id, never by position.
   */
  makeBook: (fields?: BookFields) => Promise<ApiBook & { oldPrice: number }>;
}

export const test = base.extend<Fixtures>({
  shopper: async ({ request }, use) => {
    await use(await newCustomer(request, 'own'));
  },
  makeBook: async ({ request }, use) => {
    const made: string[] = [];
    let token = '';
    await use(async (fields = {}) => {
      token ||= await ownerToken(request);
      const res = await request.post('/api/books/create-book', {
        headers: { Authorization: `Bearer ${token}` },
        data: { title: uniqueTitle('Own Book'), description: 'A book of one browser test.', category: 'fiction', trending: false, oldPrice: 20, newPrice: 12.5, coverImage: 'book-4', stock: 5, ...fields },
      });
      expect(res.status(), 'the test book is created').toBe(201);
      const { book } = (await res.json()) as { book: ApiBook & { oldPrice: number } };
      made.push(book._id);
      return book;
    });
    if (made.length === 0) return;
    token = await ownerToken(request);
    for (const id of made) {
      const res = await request.delete(`/api/books/${id}`, { headers: { Authorization: `Bearer ${token}` } });
      expect([200, 204, 404], `test book ${id} is deleted`).toContain(res.status());
    }
  },
});

export { expect };
