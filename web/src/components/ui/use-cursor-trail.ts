import { useState } from 'react';

/**
 * The cursors of a server-paged list's pages walked so far (Next pushes the server's next cursor,
 * Previous pops), kept for one filter: a new `filter` (another tab, another search) starts again at
 * page 1. `cursor` is the one to ask the server for; `page` is 1-based, for CursorPager.
 */
export function useCursorTrail(filter: string) {
  const [trail, setTrail] = useState<{ filter: string; cursors: (string | null)[] }>({ filter, cursors: [null] });
  const cursors = trail.filter === filter ? trail.cursors : [null];
  return {
    cursor: cursors[cursors.length - 1] ?? null,
    page: cursors.length,
    previous: () => setTrail({ filter, cursors: cursors.slice(0, -1) }),
    next: (nextCursor: string) => setTrail({ filter, cursors: [...cursors, nextCursor] }),
  };
}
