// @vitest-environment happy-dom
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROBE_URL } from './network-status';
import { useOnline } from './use-online';

describe('useOnline', () => {
  afterEach(() => vi.restoreAllMocks());

  it("follows the browser's offline event, and its online event once our origin answers", async () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const { result } = renderHook(() => useOnline());
    await waitFor(() => expect(result.current).toBe(true)); // the probe on mount got through
    act(() => {
      onLine.mockReturnValue(false);
      window.dispatchEvent(new Event('offline'));
    });
    expect(result.current).toBe(false);
    await act(async () => {
      onLine.mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(result.current).toBe(true));
  });

  it("lie-fi: the browser says online but the probe fails, so it reads offline", async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const { result } = renderHook(() => useOnline());
    await act(async () => {
      window.dispatchEvent(new Event('online')); // a fresh check, as after a reload
    });
    await waitFor(() => expect(result.current).toBe(false));
    expect(fetchSpy).toHaveBeenCalledWith(PROBE_URL, expect.objectContaining({ cache: 'no-store' }));
  });
});
