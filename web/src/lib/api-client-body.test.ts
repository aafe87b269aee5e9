import { describe, expect, it } from 'vitest';
import { ApiError, classifyResponse } from './api-client';

/** The error a call throws (fails the test if it returns). */
function thrown(call: () => unknown): ApiError {
  try {
    call();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to throw');
}

describe('error answers read into the one error shape', () => {
  it('keeps the message and the extra fields of a code', () => {
    const error = thrown(() => classifyResponse(409, JSON.stringify({ message: 'Prices have changed', code: 'PRICE_CHANGED', totalPrice: 3 })));
    expect(error).toMatchObject({ kind: 409, status: 409, message: 'Prices have changed' });
    expect(error.body).toEqual({ message: 'Prices have changed', code: 'PRICE_CHANGED', totalPrice: 3 });
  });

  it('drops fields of the wrong type instead of trusting them', () => {
    const error = thrown(() => classifyResponse(400, JSON.stringify({ message: 7, code: ['x'], details: { title: ['Title is required', 3] } })));
    expect(error.message).toBe('Request failed (400)');
    expect(error.body).toEqual({ message: '', details: { title: ['Title is required'] } });
  });
});
