import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followCatalogueUpdates } from './catalogue-updates';

// The page side of the worker's broadcast update: which messages refetch the book queries, and how often.

function setup() {
  const worker = new EventTarget();
  vi.stubGlobal('navigator', { serviceWorker: worker });
  const invalidateQueries = vi.fn(async () => undefined);
  followCatalogueUpdates({ invalidateQueries, isFetching: () => 0 } as unknown as QueryClient);
  const post = (data: unknown) => worker.dispatchEvent(new MessageEvent('message', { data }));
  const update = (cacheName: string, updatedURL: string) => ({ type: 'CACHE_UPDATED', meta: 'workbox-broadcast-update', payload: { cacheName, updatedURL } });
  return { post, update, invalidateQueries };
}

describe('followCatalogueUpdates', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("refetches the book queries when the catalogue cache reports a changed answer, and ignores other messages", () => {
    const { post, update, invalidateQueries } = setup();
    post({ type: 'SKIP_WAITING' });
    post(update('covers', 'http://127.0.0.1:5000/covers/book-1.svg'));
    expect(invalidateQueries).not.toHaveBeenCalled();
    post(update('catalogue', 'http://127.0.0.1:5000/api/books/b1'));
    expect(invalidateQueries).toHaveBeenCalledTimes(1);
    expect(invalidateQueries).toHaveBeenCalledWith({ queryKey: ['books'] });
  });

  it('refetches at most once per address every 10 seconds', () => {
    vi.useFakeTimers();
    const { post, update, invalidateQueries } = setup();
    post(update('catalogue', '/api/books/b1'));
    post(update('catalogue', '/api/books/b1'));
    post(update('catalogue', '/api/books/b2'));
    expect(invalidateQueries).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10_000);
    post(update('catalogue', '/api/books/b1'));
    expect(invalidateQueries).toHaveBeenCalledTimes(3);
  });

  it('lets a book request still in flight land, then refetches: the page never keeps the copy served before the update', async () => {
    const worker = new EventTarget();
    vi.stubGlobal('navigator', { serviceWorker: worker });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    followCatalogueUpdates(client);
    // The worker's answers: the cached copy first (slowly, as a first read), then the network's.
    const answers = ['$21.00', '$17.00'];
    let release: () => void = () => undefined;
    const queryFn = vi.fn(() => {
      const answer = answers.shift()!;
      return queryFn.mock.calls.length === 1 ? new Promise<string>((resolve) => (release = () => resolve(answer))) : Promise.resolve(answer);
    });
    const observer = new QueryObserver(client, { queryKey: ['books', 'detail', 'b1'], queryFn });
    const seen: (string | undefined)[] = [];
    const unsubscribe = observer.subscribe((result) => seen.push(result.data));
    worker.dispatchEvent(new MessageEvent('message', { data: { type: 'CACHE_UPDATED', meta: 'workbox-broadcast-update', payload: { cacheName: 'catalogue', updatedURL: '/api/books/b1' } } }));
    release();
    await vi.waitFor(() => expect(seen.at(-1)).toBe('$17.00'));
    expect(queryFn).toHaveBeenCalledTimes(2);
    unsubscribe();
  });
});
