import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Marks the reads under `queryKey` stale after a write and fetches the shown ones again. Plain
 * invalidation is not enough on a page just opened: while a read's first load is still on its way
 * (no data yet), TanStack hands the invalidation that load, sent before the write, so a gift card
 * issued at once stayed off the list below the form. Cancelling that load first (only a first
 * load: a read with data is refetched by the invalidation itself) makes the refetch a new one.
 */
export async function refreshAfterWrite(client: QueryClient, queryKey: QueryKey): Promise<void> {
  await client.cancelQueries({ queryKey, predicate: (query) => query.state.data === undefined });
  await client.invalidateQueries({ queryKey });
}
