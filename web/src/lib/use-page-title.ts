import { useEffect } from 'react';

/** 'Cart' -> 'Cart | Bookstore'; a title naming the shop already stays as it is. */
export function pageTitle(title: string): string {
  return title.includes('Bookstore') ? title : `${title} | Bookstore`;
}

// The server render (src/server/render.tsx) reads the title the page asked for: renderToString is
// synchronous, so the last page rendered is the one that set it.
let serverTitle: string | null = null;

/** The title set during the last server render (and forgets it). */
export function takeServerTitle(): string | null {
  const title = serverTitle;
  serverTitle = null;
  return title;
}

export function usePageTitle(title: string): void {
  // Only on the server, where nothing re-renders: renderToString renders each page once, synchronously.
  // eslint-disable-next-line react-hooks/globals
  if (typeof document === 'undefined') serverTitle = pageTitle(title);
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
