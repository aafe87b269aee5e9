import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { isEmailNotVerified } from './email-verification';

describe('isEmailNotVerified', () => {
  it('recognises only the API’s 403 EMAIL_NOT_VERIFIED', () => {
    expect(isEmailNotVerified(new ApiError(403, 'Verify your email address first', { message: 'Verify your email address first', code: 'EMAIL_NOT_VERIFIED' }))).toBe(true);
    expect(isEmailNotVerified(new ApiError(403, 'The order email must be the email you signed in with', { message: 'x' }))).toBe(false);
    expect(isEmailNotVerified(new ApiError(409, 'x', { message: 'x', code: 'TOO_MANY_OPEN_ORDERS' }))).toBe(false);
    expect(isEmailNotVerified(new Error('boom'))).toBe(false);
  });
});
