import { afterAll, beforeAll, expect } from 'vitest';
import { adminToken, http, makeBooks, removeBooks, type TestBook } from './helpers';

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

/**
 * Makes books through POST /api/books/create-book (the server's own write path: search index,
 * pages), each `defaults` with the given fields, and deletes them through the API after the
 * enclosing describe's (or file's) tests. Returns the created book.
 */
export function booksViaApi(defaults: Record<string, unknown>): (fields: Record<string, unknown>) => Promise<any> {
  const created: string[] = [];
  afterAll(async () => {
    const token = await adminToken();
    for (const id of created) await http(`/api/books/${id}`, { method: 'DELETE', token });
  });
  return async (fields) => {
    const res = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: { ...defaults, ...fields } });
    expect(res.status).toBe(201);
    created.push(res.body.book._id);
    return res.body.book;
  };
}
