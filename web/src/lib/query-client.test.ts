import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ShopQueryClient } from './query-client';

/** A shown list whose answers the test releases one at a time, each the server's state when asked. */
function shownList(client: QueryClient, held = ['a']) {
  let server = held;
  let requests = 0;
  const pending: (() => void)[] = [];
  const observer = new QueryObserver(client, {
    queryKey: ['list'],
    queryFn: () => {
      requests += 1;
      const answer = [...server]; // what the server held when the request arrived
      return new Promise<string[]>((resolve) => pending.push(() => resolve(answer)));
    },
  });
  const stop = observer.subscribe(() => {});
  /** Answers the requests waiting now, then lets the query take the answers. */
  const answerAll = async () => {
    while (pending.length) pending.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return {
    write: (item: string) => (server = [...server, item]),
    answerAll,
    /** Answers each request as it comes until `done` settles (a refetch is asked for only later). */
    answerUntil: async (done: Promise<unknown>) => {
      let settled = false;
      void done.finally(() => (settled = true));
      while (!settled) await answerAll();
    },
    data: () => client.getQueryData<string[]>(['list']),
    requests: () => requests,
    stop,
  };
}

describe('ShopQueryClient.invalidateQueries', () => {
  it('a write made while the list is still loading for the first time shows in the list', async () => {
    const client = new ShopQueryClient();
    const list = shownList(client);
    list.write('b'); // the first load was sent before this write
    await list.answerUntil(client.invalidateQueries({ queryKey: ['list'] }));
    expect(list.data()).toEqual(['a', 'b']);
    expect(list.requests()).toBe(2);
    list.stop();
  });

  it('a list left before its first load came back is stale after the write, and fetched anew when shown again', async () => {
    const client = new ShopQueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } }); // the app's
    const list = shownList(client);
    list.stop(); // the page is left; its first load goes on
    list.write('b');
    await list.answerUntil(client.invalidateQueries({ queryKey: ['list'] }));
    expect(list.data()).toEqual(['a']);
    expect(client.getQueryState(['list'])?.isInvalidated).toBe(true);
    // The page is opened again (within its 30 s staleTime): the server holds the write.
    const again = shownList(client, ['a', 'b']);
    await again.answerAll();
    expect(again.data()).toEqual(['a', 'b']);
    again.stop();
  });

  it("TanStack's own client keeps the first load, sent before the write (why the subclass exists)", async () => {
    const client = new QueryClient();
    const list = shownList(client);
    list.write('b');
    await list.answerUntil(client.invalidateQueries({ queryKey: ['list'] }));
    expect(list.data()).toEqual(['a']);
    list.stop();
  });

  it('a list already shown is fetched again after the write, once', async () => {
    const client = new ShopQueryClient();
    const list = shownList(client);
    await list.answerAll();
    expect(list.data()).toEqual(['a']);
    list.write('b');
    await list.answerUntil(client.invalidateQueries({ queryKey: ['list'] }));
    expect(list.data()).toEqual(['a', 'b']);
    expect(list.requests()).toBe(2);
    list.stop();
  });

  it('leaves other queries alone', async () => {
    const client = new ShopQueryClient();
    const list = shownList(client);
    await list.answerUntil(client.invalidateQueries({ queryKey: ['other'] }));
    expect(list.requests()).toBe(1);
    list.stop();
  });
});
