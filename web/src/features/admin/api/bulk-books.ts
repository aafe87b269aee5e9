import { BulkBooksSchema, type BulkBooks, type BulkBooksResponse } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// POST /api/admin/books/bulk: one request for the selected books (set price, set stock, delete).
export function bulkBooks(bulk: BulkBooks) {
  return apiFetch<BulkBooksResponse>('/api/admin/books/bulk', { method: 'POST', body: BulkBooksSchema.parse(bulk), token: adminToken() });
}

/** Every list showing the books, the books themselves and the overview (low stock, counts) change. */
export function useBulkBooks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkBooks,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.books }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
      ]),
  });
}
