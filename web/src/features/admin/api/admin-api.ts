import type { AdminLoginResponse, AdminStats, BookInput, BookMutationResponse } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { ApiError, apiFetch, classifyResponse } from '../../../lib/api-client';

export function adminLogin(username: string, password: string) {
  return apiFetch<AdminLoginResponse>('/api/auth/admin', { method: 'POST', body: { username, password } });
}

/** Ends the token on the server too (every copy of it stops working); the caller clears it locally. */
export function adminLogout(token: string) {
  return apiFetch<{ message: string }>('/api/auth/admin/logout', { method: 'POST', token, timeoutMs: 5_000 });
}

export const statsQuery = () =>
  queryOptions({ queryKey: ['admin-stats'], queryFn: () => apiFetch<AdminStats>('/api/admin', { token: adminToken() }) });

export type BookPayload = Omit<BookInput, 'oldPrice' | 'newPrice'> & { oldPrice: number; newPrice: number };

export function createBook(book: BookPayload) {
  return apiFetch<BookMutationResponse>('/api/books/create-book', { method: 'POST', body: book, token: adminToken() });
}

export function editBook(id: string, book: BookPayload) {
  return apiFetch<BookMutationResponse>(`/api/books/edit/${encodeURIComponent(id)}`, { method: 'PUT', body: book, token: adminToken() });
}

export function deleteBook(id: string) {
  return apiFetch<BookMutationResponse>(`/api/books/${encodeURIComponent(id)}`, { method: 'DELETE', token: adminToken() });
}

/** Uploads a cover with progress (fetch cannot report upload progress; XHR can). */
export function uploadCover(file: File, onProgress: (percent: number) => void): Promise<{ coverImage: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/books/cover');
    const token = adminToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      try {
        resolve(classifyResponse<{ coverImage: string }>(xhr.status, xhr.responseText));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError('FETCH_ERROR', 'Could not reach the server'));
    xhr.ontimeout = () => reject(new ApiError('TIMEOUT_ERROR', 'The upload took too long'));
    xhr.timeout = 60_000;
    const form = new FormData();
    form.append('cover', file);
    xhr.send(form);
  });
}
