import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { unavailableFromError } from './create-order';

describe('unavailableFromError', () => {
  it('reads the lines from 409 OUT_OF_STOCK and 400 UNKNOWN_BOOKS', () => {
    expect(unavailableFromError(new ApiError(409, 'x', { message: 'x', code: 'OUT_OF_STOCK', productIDs: ['a', 'b'] }))).toEqual({ reason: 'out-of-stock', productIDs: ['a', 'b'] });
    expect(unavailableFromError(new ApiError(400, 'x', { message: 'x', code: 'UNKNOWN_BOOKS', productIDs: ['c'] }))).toEqual({ reason: 'deleted', productIDs: ['c'] });
  });
  it('ignores every other failure', () => {
    expect(unavailableFromError(new ApiError(409, 'x', { message: 'x', code: 'PRICE_CHANGED', totalPrice: 3 }))).toBeNull();
    expect(unavailableFromError(new ApiError(400, 'Repeated book ids', { message: 'x', details: { productIDs: ['a'] } }))).toBeNull();
    expect(unavailableFromError(new ApiError('FETCH_ERROR', 'offline'))).toBeNull();
    expect(unavailableFromError(new Error('boom'))).toBeNull();
  });
});
