import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, classifyResponse, classifyThrown, isBusy } from './api-client';

describe('request error classing', () => {
  it('classes network failures, timeouts, unreadable bodies and HTTP statuses', () => {
    expect(classifyThrown(new TypeError('Failed to fetch'), false).kind).toBe('FETCH_ERROR');
    expect(classifyThrown(new DOMException('aborted', 'AbortError'), true).kind).toBe('TIMEOUT_ERROR');
    expect(() => classifyResponse(200, '<html>')).toThrow(expect.objectContaining({ kind: 'PARSING_ERROR' }));
    // Asserted outside any catch: if it stopped throwing, this fails.
    const conflict = () => classifyResponse(409, JSON.stringify({ message: 'Prices have changed', totalPrice: 3 }));
    expect(conflict).toThrow(ApiError);
    expect(conflict).toThrow(expect.objectContaining({ kind: 409, message: 'Prices have changed', body: expect.objectContaining({ totalPrice: 3 }) }));
    expect(classifyResponse(200, '[1]')).toEqual([1]);
    expect(() => classifyResponse(502, 'Bad gateway')).toThrow(expect.objectContaining({ kind: 502 }));
  });
});

describe('a 503 BUSY is sent again', () => {
  afterEach(() => vi.unstubAllGlobals());
  const busy = JSON.stringify({ message: 'Someone else is changing this right now. Please try again.', code: 'BUSY' });

  it('is only a 503 that says BUSY (an outage 503 is not sent again)', () => {
    expect(isBusy(503, busy)).toBe(true);
    expect(isBusy(503, JSON.stringify({ message: 'The shop is briefly unavailable.' }))).toBe(false);
    expect(isBusy(409, busy)).toBe(false);
    expect(isBusy(503, 'not json')).toBe(false);
  });

  it('gets the real answer on a later try, and gives up with the BUSY error after three more', async () => {
    vi.useFakeTimers();
    try {
      const replies = [503, 503, 201];
      const fetchStub = vi.fn(async () => {
        const status = replies.shift() ?? 503;
        return new Response(status === 201 ? JSON.stringify({ _id: 'o1' }) : busy, { status, headers: { 'Retry-After': '1' } });
      });
      vi.stubGlobal('fetch', fetchStub);
      const placed = apiFetch<{ _id: string }>('/api/orders', { method: 'POST', body: { a: 1 }, timeoutMs: 60_000 });
      await vi.advanceTimersByTimeAsync(5000);
      await expect(placed).resolves.toEqual({ _id: 'o1' });
      expect(fetchStub).toHaveBeenCalledTimes(3);

      replies.length = 0; // BUSY every time from here
      fetchStub.mockClear();
      const refused = apiFetch('/api/orders', { method: 'POST', body: { a: 1 }, timeoutMs: 60_000 });
      const settled = expect(refused).rejects.toMatchObject({ kind: 503, body: expect.objectContaining({ code: 'BUSY' }) });
      await vi.advanceTimersByTimeAsync(10_000);
      await settled;
      expect(fetchStub).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });
});
