import type { ImportReport } from '@bookstore/contract';
import { adminToken } from '../../../lib/admin-session';
import { classifyResponse, classifyThrown } from '../../../lib/api-client';
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
