import { useLayoutEffect, type RefObject } from 'react';

/**
 * A served field holds what the shopper typed before the app started (issue 60): React hydrates a
 * controlled input without reading it, so its state would say '' while the field shows the text,
 * and the next render of the input (or the submit) would drop it. At the commit that hydrates
 * the field, before anything renders it again, the state takes what the field holds.
 */
export function useTypedBeforeStart(ref: RefObject<HTMLInputElement | null>, set: (value: string) => void): void {
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    if (typed) set(typed);
    // Once, when React takes the field over: from then on onChange keeps the two in step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
