import { QueryClient, type InvalidateOptions, type InvalidateQueryFilters, type QueryKey } from '@tanstack/react-query';

/**
 * The storefront's and dashboard's QueryClient: an invalidation always ends with data fetched after
 * it was asked for. TanStack hands an invalidation the query's first load when that load is still
 * on its way (no data yet), and that load was sent before the write: a staff member added or a gift
 * card issued at once on a page just opened stayed off the list below the form (seen in the browser
 * tests' twenty-runs). Such queries are invalidated once more when that load settles, which fetches
 * them anew; a query with data is refetched by the first invalidation, as before. No load is
 * cancelled, so nothing awaiting one (a route's loader, a suspended render) sees a CancelledError.
 */
export class ShopQueryClient extends QueryClient {
  override async invalidateQueries<TTaggedQueryKey extends QueryKey = QueryKey>(
    filters?: InvalidateQueryFilters<TTaggedQueryKey>,
    options?: InvalidateOptions,
  ): Promise<void> {
    const firstLoads = this.getQueryCache()
      .findAll(filters)
      .filter((query) => query.state.data === undefined && query.state.fetchStatus !== 'idle');
    await super.invalidateQueries(filters, options);
    if (firstLoads.length === 0) return;
    await super.invalidateQueries({ refetchType: filters?.refetchType, predicate: (query) => firstLoads.includes(query) }, options);
  }
}
