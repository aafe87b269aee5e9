import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { logger } from 'firebase-functions';
import { formatGiftCardCode, giftCardCheckSymbol } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorHandler, isTransactionContention, loggablePath, retryContended } from './errors';
import { HttpError, INDEX_RETRY_AFTER_S } from './http-error';
import { IndexNotReadyError } from './queries';

describe('loggablePath', () => {
  it('replaces path segments holding an email address, raw or encoded', () => {
    expect(loggablePath('/api/orders/email/ann@example.com')).toBe('/api/orders/email/[email]');
    expect(loggablePath('/api/orders/email/ann%40example.com')).toBe('/api/orders/email/[email]');
    expect(loggablePath('/api/orders/email/ann%40example.com/more')).toBe('/api/orders/email/[email]/more');
  });

  it('keeps only the last 4 of a gift card code in a path (issue 55)', () => {
    const body = '7K3M9QXR2T4VW8H';
    const code = body + giftCardCheckSymbol(body);
    expect(loggablePath(`/api/gift-cards/${code}/balance`)).toBe(`/api/gift-cards/[gift card …${code.slice(-4)}]/balance`);
    expect(loggablePath(`/api/gift-cards/${formatGiftCardCode(code).toLowerCase()}/balance`)).toBe(`/api/gift-cards/[gift card …${code.slice(-4)}]/balance`);
    expect(loggablePath(`/api/gift-cards/${encodeURIComponent(formatGiftCardCode(code).replace(/-/g, ' '))}/balance`)).not.toContain(code.slice(0, 12));
  });

  it('keeps every other path as it is', () => {
    expect(loggablePath('/api/books/abc123')).toBe('/api/books/abc123');
    expect(loggablePath('/')).toBe('/');
  });
});

describe('isTransactionContention', () => {
  it('is a transaction that lost its turn: ABORTED, or closed while it waited for a lock', () => {
    expect(isTransactionContention({ code: 10, details: 'Transaction lock timeout.' })).toBe(true);
    expect(isTransactionContention(Object.assign(new Error('3 INVALID_ARGUMENT: Transaction is invalid or closed.'), { code: 3, details: 'Transaction is invalid or closed.' }))).toBe(true);
    expect(isTransactionContention({ code: 3, details: 'The referenced transaction has expired or is no longer valid.' })).toBe(true);
  });

  it('is not any other invalid argument, an outage or a plain error', () => {
    expect(isTransactionContention({ code: 3, details: 'Value for argument "data" is not a valid Firestore document.' })).toBe(false);
    expect(isTransactionContention({ code: 14 })).toBe(false);
    expect(isTransactionContention(new Error('Transaction is invalid or closed.'))).toBe(false);
    expect(isTransactionContention(null)).toBe(false);
  });
});

describe('retryContended', () => {
  const closed = () => Object.assign(new Error('3 INVALID_ARGUMENT: Transaction is invalid or closed.'), { code: 3, details: 'Transaction is invalid or closed.' });

  it('runs a job’s transaction again while it is refused as contended, and returns what the next attempt read', async () => {
    const refusals = [closed(), new HttpError(503, 'Too many orders for these books at once. Please try again.')];
    const work = vi.fn(async () => {
      const refusal = refusals.shift();
      if (refusal) throw refusal;
      return 'skipped: another run released it';
    });
    await expect(retryContended(work)).resolves.toBe('skipped: another run released it');
    expect(work).toHaveBeenCalledTimes(3);
  });

  it('gives up after its attempts, and never repeats any other error', async () => {
    const contended = vi.fn(async () => { throw closed(); });
    await expect(retryContended(contended, 2)).rejects.toThrow('invalid or closed');
    expect(contended).toHaveBeenCalledTimes(2);
    const conflict = vi.fn(async () => { throw new HttpError(409, 'An order that is cancelled cannot be cancelled'); });
    await expect(retryContended(conflict)).rejects.toThrow('cannot be cancelled');
    expect(conflict).toHaveBeenCalledTimes(1);
  });
});

describe('errorHandler: a query whose Firestore index is missing or building', () => {
  const shape = { collection: 'books', filters: [{ field: 'category', op: 'EQUAL' }], orders: [{ field: 'createdAt', direction: 'DESCENDING' as const }] };
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.get('/api/books', () => {
      throw new IndexNotReadyError(shape, 'The query requires an index. You can create it here: https://console.firebase.google.com/...');
    });
    app.use(errorHandler);
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers 503 with Retry-After, never cached, and logs the query with Firestore\'s message', async () => {
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const res = await fetch(`${base}/api/books?category=fiction`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(INDEX_RETRY_AFTER_S));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ message: 'This part of the shop is being prepared after an update. Please try again in a minute.', code: 'INDEX_NOT_READY' });
    expect(logged).toHaveBeenCalledWith('Firestore index missing or building', expect.objectContaining({
      status: 503,
      path: '/api/books',
      query: 'books where category EQUAL order by createdAt DESCENDING',
      firestore: expect.stringContaining('You can create it here'),
    }));
    logged.mockRestore();
  });
});
