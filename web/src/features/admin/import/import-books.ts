import type { ImportReport } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { classifyResponse, classifyThrown } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { ImportChunk } from './split-file';

// POST /api/books/import for one chunk (JSON lines), with the admin token.
export async function importChunk(chunk: ImportChunk, dryRun: boolean): Promise<ImportReport> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, 60_000);
  try {
    const headers: Record<string, string> = { 'Content-Type': 'application/x-ndjson', Accept: 'application/json' };
    const token = adminToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(`/api/books/import?dryRun=${dryRun ? 1 : 0}&firstRow=${chunk.firstRow}`, {
      method: 'POST',
      headers,
      body: chunk.body,
      credentials: 'same-origin',
      signal: controller.signal,
    });
    return classifyResponse<ImportReport>(res.status, await res.text());
  } catch (error) {
    throw classifyThrown(error, timedOut);
  } finally {
    clearTimeout(timer);
  }
}

/** One chunk of an import; a real one (not a dry run) changes the books and the overview's figures. */
export function useImportChunk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ chunk, dryRun }: { chunk: ImportChunk; dryRun: boolean }) => importChunk(chunk, dryRun),
    onSuccess: (report) =>
      report.dryRun ||
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.books }),
        queryClient.invalidateQueries({ queryKey: queryKeys.adminStats }),
      ]),
  });
}
