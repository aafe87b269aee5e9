import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadlineFor, DEADLINE_MS, withDeadline } from './deadline';
import { errorHandler } from './errors';

// A real Express app on a real socket: a handler slower than its deadline, one that fails the way
// the Firestore client does when the service is unreachable, and one that is on time.
let server: Server;
let base = '';

beforeAll(async () => {
  const app = express();
  app.use(withDeadline(() => 50));
  app.get('/slow', (_req, res) => void setTimeout(() => res.json({ late: true }), 200));
  app.get('/fast', (_req, res) => void res.json({ ok: true }));
  app.get('/unavailable', () => {
    throw Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
  });
  app.use(errorHandler);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe('request deadlines', () => {
  it('answers 503 with Retry-After when a handler outlives its deadline, and the late answer is dropped', async () => {
    const res = await fetch(`${base}/slow`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect((await res.json()).message).toMatch(/try again/);
    await new Promise((resolve) => setTimeout(resolve, 250)); // the late res.json must not crash the server
    expect((await fetch(`${base}/fast`)).status).toBe(200);
  });

  it('gives reads 15 s and writes 55 s of the function’s 60', () => {
    expect(deadlineFor('GET')).toBe(15_000);
    expect(deadlineFor('HEAD')).toBe(DEADLINE_MS.read);
    expect(deadlineFor('POST')).toBe(55_000);
    expect(deadlineFor('PUT')).toBe(DEADLINE_MS.write);
  });
});

describe('Firestore unavailable', () => {
  it('is a 503 with Retry-After and a message, not a 500', async () => {
    const res = await fetch(`${base}/unavailable`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toEqual({ message: 'The shop is briefly unavailable. Please try again in a moment.' });
  });
});
