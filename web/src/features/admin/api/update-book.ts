import { BookInputSchema, type BookInput, type BookMutationResponse } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { uploadCover } from './upload-cover';

// PUT /api/books/edit/:id
export function updateBook(id: string, book: BookInput) {
  return apiFetch<BookMutationResponse>(`/api/books/edit/${encodeURIComponent(id)}`, { method: 'PUT', body: BookInputSchema.parse(book), token: adminToken() });
}

/**
 * Uploads a new cover if one was chosen, then saves the book: the book itself, every list showing
 * it, and the overview (trending count, low stock) change.
 */
export function useUpdateBook(id: string, onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ book, cover }: { book: BookInput; cover: File | null }) => {
      const coverImage = cover ? (await uploadCover(cover, onProgress)).coverImage : book.coverImage;
      return updateBook(id, cover ? { ...book, coverImage, coverUrl: undefined } : book);
    },
    onSuccess: ({ book }) => {
      queryClient.setQueryData(queryKeys.book(book._id), book);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.books }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
      ]);
    },
  });
}
