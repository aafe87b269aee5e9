import { afterAll, beforeAll } from 'vitest';
import { makeBooks, removeBooks, type TestBook } from './helpers';

// Apart from helpers.ts, which the bench and the fault tests import outside vitest.

/**
 * Books of the test file's own (stock 100 each), made before its tests and removed after, so the
 * seeded catalogue's stock stays as the browser tests expect it. Returns the file's `seededBooks`.
 */
export function ownShelf(count = 8, stock = 100): () => Promise<any[]> {
  let shelf: TestBook[] = [];
  beforeAll(async () => {
    shelf = await makeBooks(count, stock);
  });
  afterAll(async () => removeBooks(shelf));
  return async () => shelf;
}
