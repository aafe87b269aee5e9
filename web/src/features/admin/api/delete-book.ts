import type { BookMutationResponse } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// DELETE /api/books/:id
export function deleteBook(id: string) {
  return apiFetch<BookMutationResponse>(`/api/books/${encodeURIComponent(id)}`, { method: 'DELETE', token: adminToken() });
}

/** Deletes a book: it leaves every list, and the overview's figures (products, trending, low stock). */
export function useDeleteBook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBook,
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.book(id) });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.books }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
      ]);
    },
  });
}
