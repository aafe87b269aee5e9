import { describe, expect, it } from 'vitest';
import { loggablePath } from './errors';

describe('loggablePath', () => {
  it('replaces path segments holding an email address, raw or encoded', () => {
    expect(loggablePath('/api/orders/email/ann@example.com')).toBe('/api/orders/email/[email]');
    expect(loggablePath('/api/orders/email/ann%40example.com')).toBe('/api/orders/email/[email]');
    expect(loggablePath('/api/orders/email/ann%40example.com/more')).toBe('/api/orders/email/[email]/more');
  });

  it('keeps every other path as it is', () => {
    expect(loggablePath('/api/books/abc123')).toBe('/api/books/abc123');
    expect(loggablePath('/')).toBe('/');
  });
});
