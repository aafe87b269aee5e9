import { useEffect } from 'react';

// What the shopper did to the served page before the app started (decision 038): the inline start
// script (web/src/server/start-script.ts) keeps each click on a button or checkbox and the last
// choice of each select, and plays them back when told. app/start.tsx stops the keeping just before
// React hydrates (from then on React's own listeners see every event); the app replays the queue
// once, after hydration and the renders that follow it (the wishlist's and the cart's real state),
// so each tap has the effect it would have had with the app running: exactly one. A tap on Add to
// Cart the script could answer itself (issue 60: it put the book in the stored cart at once) is not
// clicked again: the app is handed the book instead (`onEarlyAdd`), to keep it once and say so.

declare global {
  interface Window {
    __early?: { stop(): void; replay(onEarlyAdd?: (book: unknown) => void): void };
  }
}

/** Stops the start script's keeping of taps (and takes their marks off). Call just before hydrating. */
export function stopEarlyInput(): void {
  window.__early?.stop();
}

/**
 * Replays the kept taps once, a task after the first commit (and the renders it schedules);
 * `onEarlyAdd` gets each book the start script already put in the stored cart (as the page's data had it).
 */
export function useReplayEarlyInput(onEarlyAdd?: (book: unknown) => void): void {
  useEffect(() => {
    const timer = setTimeout(() => window.__early?.replay(onEarlyAdd), 0);
    return () => clearTimeout(timer);
    // Once, after the first commit: the handler is a module function.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
