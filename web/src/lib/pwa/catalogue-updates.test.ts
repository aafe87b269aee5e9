import type { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followCatalogueUpdates } from './catalogue-updates';

// The page side of the worker's broadcast update: which messages refetch the book queries, and how often.

function setup() {
  const worker = new EventTarget();
  vi.stubGlobal('navigator', { serviceWorker: worker });
  const invalidateQueries = vi.fn(async () => undefined);
  followCatalogueUpdates({ invalidateQueries } as unknown as QueryClient);
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
});
