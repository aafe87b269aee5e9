import { useEffect, useState } from 'react';
import { useFirstInteraction } from './use-first-interaction';
import { useHydrated } from './use-hydrated';

// When a page may start following Firestore live (the Firestore SDK: 95 KB gzip, and on a 4x-throttled
// phone about 250 ms of main thread to load and connect, profiled on a book page, issue 60): on the
// visitor's first touch, or once the page has been quiet a few seconds after the app started. Not
// while the app starts, when a tap is most likely and the main thread is busiest. Nothing is missed
// meanwhile: the page was drawn from a fresh read, and a listener's first answer is the stock as it
// is then.

/** How long after the app has started a page that waits for no touch starts following anyway. */
export const QUIET_AFTER_START_MS = 3_000;

const whenIdle = (run: () => void): (() => void) => {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 0); // Safari: no idle callbacks
  return () => window.clearTimeout(id);
};

export function useLiveAfterStart(): boolean {
  const hydrated = useHydrated();
  const touched = useFirstInteraction();
  const [quiet, setQuiet] = useState(false);
  useEffect(() => {
    if (!hydrated || quiet || touched) return;
    let cancelIdle = () => {};
    const timer = window.setTimeout(() => {
      cancelIdle = whenIdle(() => setQuiet(true));
    }, QUIET_AFTER_START_MS);
    return () => {
      window.clearTimeout(timer);
      cancelIdle();
    };
  }, [hydrated, quiet, touched]);
  return hydrated && (touched || quiet);
}
