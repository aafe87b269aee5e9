import { coverFileProblem, type CoverForIsbnResponse, type CoverUploadResponse } from '@bookstore/contract';
import { adminToken } from '../../../lib/admin-session';
import { ApiError, classifyResponse } from '../../../lib/api-client';

/**
 * POST /api/books/cover, with progress (fetch cannot report upload progress; XHR can). A file the
 * server would refuse (contract: size and type) is refused here first, with the server's message.
 * No cache changes: the cover counts once a book is saved with it (create-book, update-book).
 */
export function uploadCover(file: File, onProgress: (percent: number) => void): Promise<CoverUploadResponse> {
  return uploadTo<CoverUploadResponse>('/api/books/cover', file, onProgress);
}

/**
 * POST /api/books/cover?isbn=: a cover for the book with that ISBN (the import page's bulk covers).
 * 404 `NO_BOOK_WITH_ISBN` when no book has it; nothing is stored then.
 */
export function uploadCoverForIsbn(isbn: string, file: File): Promise<CoverForIsbnResponse> {
  return uploadTo<CoverForIsbnResponse>(`/api/books/cover?isbn=${encodeURIComponent(isbn)}`, file, () => undefined);
}

function uploadTo<T>(path: string, file: File, onProgress: (percent: number) => void): Promise<T> {
  const problem = coverFileProblem(file);
  if (problem) return Promise.reject(new ApiError(problem.status, problem.message, { message: problem.message }));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    const token = adminToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      try {
        resolve(classifyResponse<T>(xhr.status, xhr.responseText));
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
