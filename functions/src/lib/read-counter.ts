import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';

// Counts the Firestore documents each request reads (as billed: a query that matches nothing costs
// one read, and a count() costs one per 1,000 index entries). The emulator reports it in an
// X-Firestore-Reads header, so the benchmark can show that cost stays flat as data grows.

const store = new AsyncLocalStorage<{ reads: number }>();
const enabled = process.env.FUNCTIONS_EMULATOR === 'true';

export function countReads(documents: number): void {
  const counter = store.getStore();
  if (counter) counter.reads += Math.max(1, documents);
}

export function countAggregation(entries: number): void {
  countReads(Math.ceil(entries / 1000));
}

export function readCounter(_req: Request, res: Response, next: NextFunction): void {
  if (!enabled) return next();
  const counter = { reads: 0 };
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    if (!res.headersSent) res.setHeader('X-Firestore-Reads', String(counter.reads));
    return writeHead.apply(this, args);
  } as Response['writeHead'];
  store.run(counter, next);
}

/** The documents `work` reads, counted as a request's are (for the bench's builder runs, outside any request). */
export async function countedReads<T>(work: () => Promise<T>): Promise<{ result: T; reads: number }> {
  const counter = { reads: 0 };
  const result = await store.run(counter, work);
  return { result, reads: counter.reads };
}
