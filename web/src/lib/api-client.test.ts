import { describe, expect, it } from 'vitest';
import { ApiError, classifyResponse, classifyThrown } from './api-client';

/** The error a call throws (fails the test if it returns). */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('request error classing', () => {
  it('classes network failures, timeouts, unreadable bodies and HTTP statuses', () => {
    expect(classifyThrown(new TypeError('Failed to fetch'), false).kind).toBe('FETCH_ERROR');
    expect(classifyThrown(new DOMException('aborted', 'AbortError'), true).kind).toBe('TIMEOUT_ERROR');
    expect(() => classifyResponse(200, '<html>')).toThrow(expect.objectContaining({ kind: 'PARSING_ERROR' }));
    expect(classifyResponse(200, '[1]')).toEqual([1]);
    expect(() => classifyResponse(502, 'Bad gateway')).toThrow(expect.objectContaining({ kind: 502 }));
  });

  it('keeps an error answer’s message and extra fields, read into the one error shape', () => {
    const error = thrown(() => classifyResponse(409, JSON.stringify({ message: 'Prices have changed', code: 'PRICE_CHANGED', totalPrice: 3 })));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 409, status: 409, message: 'Prices have changed' });
    expect((error as ApiError).body).toEqual({ message: 'Prices have changed', code: 'PRICE_CHANGED', totalPrice: 3 });
  });

  it('drops fields of the wrong type instead of trusting them', () => {
    const error = thrown(() => classifyResponse(400, JSON.stringify({ message: 7, code: ['x'], details: { title: ['Title is required', 3] } }))) as ApiError;
    expect(error.message).toBe('Request failed (400)');
    expect(error.body).toEqual({ message: '', details: { title: ['Title is required'] } });
  });
});
