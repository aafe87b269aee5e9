import type { ImportReport } from '@bookstore/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { ImportChunk } from './split-file';

// POST /api/books/import for one chunk (JSON lines), with the admin token.
export function importChunk(chunk: ImportChunk, dryRun: boolean): Promise<ImportReport> {
  return apiFetch<ImportReport>(`/api/books/import?dryRun=${dryRun ? 1 : 0}&firstRow=${chunk.firstRow}`, {
    method: 'POST',
    text: { body: chunk.body, type: 'application/x-ndjson' },
    token: adminToken(),
    timeoutMs: 60_000,
  });
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
