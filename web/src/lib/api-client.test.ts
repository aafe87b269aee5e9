import { describe, expect, it } from 'vitest';
import { ApiError, classifyResponse, classifyThrown } from './api-client';

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
