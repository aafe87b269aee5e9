import { useState, type Dispatch, type SetStateAction } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * The state of a controlled field the first HTML serves (issue 60): it starts from what the field
 * holds when React takes the page over (typed before the app started, or put back by the browser on
 * a reload), not ''. React hydrates a controlled input without reading or writing its value, so the
 * state read here from the served element (by its id) and the field agree from the first render, and
 * nothing sets either afterwards (the keystrokes' onChange keeps them in step as for any field).
 * Only while hydrating: a field the app draws itself starts empty, whatever an element of the page
 * being left (the same id) holds.
 */
export function useTypedBeforeStart(id: string): [string, Dispatch<SetStateAction<string>>] {
  const hydrating = !useHydrated();
  return useState(() => {
    if (!hydrating || typeof document === 'undefined') return '';
    const served = document.getElementById(id) as HTMLInputElement | null;
    return served?.value ?? '';
  });
}
