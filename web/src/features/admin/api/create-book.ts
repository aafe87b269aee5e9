import { CreateBookSchema, type BookInput, type BookMutationResponse } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { uploadCover } from './upload-cover';

// POST /api/books/create-book
export function createBook(book: BookInput) {
  return apiFetch<BookMutationResponse>('/api/books/create-book', { method: 'POST', body: CreateBookSchema.parse(book), token: adminToken() });
}

/**
 * Uploads the cover (or, with a cover URL instead, lets the server fetch it), then adds the book:
 * every book list and the overview's figures change.
 */
export function useCreateBook(onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ book, cover }: { book: BookInput; cover: File | null }) => {
      if (!cover) return createBook(book);
      const { coverImage } = await uploadCover(cover, onProgress);
      return createBook({ ...book, coverImage, coverUrl: undefined });
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.books }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
      ]),
  });
}
