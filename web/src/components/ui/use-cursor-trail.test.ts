// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useCursorTrail } from './use-cursor-trail';

describe('useCursorTrail', () => {
  it('walks forward on the server\'s cursors, back by popping, and starts again at page 1 for another filter', () => {
    const { result, rerender } = renderHook(({ filter }) => useCursorTrail(filter), { initialProps: { filter: 'waiting' } });
    expect(result.current).toMatchObject({ cursor: null, page: 1 });
    act(() => result.current.next('c2'));
    act(() => result.current.next('c3'));
    expect(result.current).toMatchObject({ cursor: 'c3', page: 3 });
    act(() => result.current.previous());
    expect(result.current).toMatchObject({ cursor: 'c2', page: 2 });
    rerender({ filter: 'allocated' });
    expect(result.current).toMatchObject({ cursor: null, page: 1 });
    act(() => result.current.next('a2'));
    expect(result.current).toMatchObject({ cursor: 'a2', page: 2 });
  });
});
