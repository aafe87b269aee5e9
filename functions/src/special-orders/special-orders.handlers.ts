import type { Request, Response } from 'express';
import {
  EMAIL_NOT_VERIFIED_MESSAGE, SpecialOrderAcceptSchema, SpecialOrderRequestSchema, SpecialOrdersQuerySchema, SpecialOrderStatusSchema,
  type SpecialOrdersPage,
} from '@bookstore/contract';
import { z } from 'zod';
import { lookupIsbn } from '../books/isbn-lookup';
import { requireCustomer, requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { takeCountedSlot } from '../lib/counted-limit';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import type { WindowLimit } from '../lib/window-limit';
import * as repo from './special-orders.repo';

const IdSchema = z.string().regex(/^[A-Za-z0-9]{1,40}$/);
function specialIdParam(req: Request): string {
  const parsed = IdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, 'Special order not found');
  return parsed.data;
}

/**
 * Per-account budgets (issue 55), one slot document each in specialOrderSlots (counted, no
 * transaction: lib/counted-limit.ts; forgotten by Firestore's TTL, firestore.indexes.json). The open
 * requests are capped at 10 (special-orders.repo.ts), but a request made and cancelled frees its place:
 * without these, a script could make and cancel requests, each one a write, a mail to nobody and
 * maybe a call to Open Library, for ever. A shopper asks for a few books a week: 20 requests a day,
 * and 5 of them an hour looked up upstream (a request past that is taken with the ISBN as its title,
 * as when Open Library is down: the shop looks it up).
 */
export const SPECIAL_ORDER_REQUESTS_PER_DAY = 20;
export const SPECIAL_ORDER_LOOKUPS_PER_HOUR = 5;
const REQUEST_LIMIT: WindowLimit = {
  collection: 'specialOrderSlots', limit: SPECIAL_ORDER_REQUESTS_PER_DAY, windowMs: 24 * 3_600_000,
  message: `At most ${SPECIAL_ORDER_REQUESTS_PER_DAY} special-order requests a day: try again tomorrow, or ask us in the shop`,
};
const LOOKUP_LIMIT: WindowLimit = {
  collection: 'specialOrderSlots', limit: SPECIAL_ORDER_LOOKUPS_PER_HOUR, windowMs: 3_600_000,
  message: 'Too many ISBN lookups',
};

/** The title the shopper gave, else Open Library's (when it answers and the account's lookups allow), else the ISBN itself. */
async function titleFor(isbn: string, given: string | undefined, who: string): Promise<string> {
  if (given) return given;
  try {
    await takeCountedSlot(LOOKUP_LIMIT, `lookup:${who}`);
    const { value } = await lookupIsbn(isbn, who);
    if (value?.title) return value.title;
  } catch {
    // Open Library busy or unreachable, or this account's lookups spent: the request is still worth
    // taking; the shop looks it up.
  }
  return `ISBN ${isbn}`;
}

// POST /api/special-orders {isbn, title?, quantity, note?}
export async function createSpecialOrder(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  if (!customer.emailVerified) throw new HttpError(403, EMAIL_NOT_VERIFIED_MESSAGE, { code: 'EMAIL_NOT_VERIFIED' });
  const input = parseWith(SpecialOrderRequestSchema, jsonBody(req));
  await takeCountedSlot(REQUEST_LIMIT, `request:${customer.uid}`); // 429 with Retry-After past the day's budget
  const title = await titleFor(input.isbn, input.title, `customer:${customer.uid}`);
  const specialOrder = await repo.createSpecialOrder(customer, input, title);
  noStore(res);
  res.status(201).json({ message: 'We have your request', specialOrder });
}

// GET /api/special-orders?cursor=&limit=   the shopper's own, newest first
export async function mySpecialOrders(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  const query = parseWith(SpecialOrdersQuerySchema, req.query);
  const page = await repo.pageOfSpecialOrders({ uid: customer.uid }, query.limit, query.cursor);
  noStore(res);
  res.json(page satisfies SpecialOrdersPage);
}

// POST /api/special-orders/:id/accept {name?, phone}
export async function acceptSpecialOrder(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  const id = specialIdParam(req);
  const contact = parseWith(SpecialOrderAcceptSchema, jsonBody(req));
  const answer = await repo.acceptSpecialOrder(customer, id, contact);
  noStore(res);
  res.json({ message: 'Quote accepted: your order is placed', ...answer });
}

// POST /api/special-orders/:id/decline, POST /api/special-orders/:id/cancel
export function answerSpecialOrder(to: 'declined' | 'cancelled') {
  return async (req: Request, res: Response) => {
    const customer = await requireCustomer(req);
    const specialOrder = await repo.answerSpecialOrder(customer, specialIdParam(req), to);
    noStore(res);
    res.json({ message: to === 'declined' ? 'Quote declined' : 'Request cancelled', specialOrder });
  };
}

// GET /api/admin/special-orders?status=&cursor=&limit=
export async function listSpecialOrders(req: Request, res: Response) {
  requirePermission(req, 'orders.desk');
  const query = parseWith(SpecialOrdersQuerySchema, req.query);
  const page = await repo.pageOfSpecialOrders({ status: query.status }, query.limit, query.cursor, true);
  noStore(res);
  res.json(page satisfies SpecialOrdersPage);
}

// POST /api/admin/special-orders/:id/status {status, price?, expectedOn?}
export async function moveSpecialOrder(req: Request, res: Response) {
  const actor = requirePermission(req, 'orders.status');
  const id = specialIdParam(req);
  const change = parseWith(SpecialOrderStatusSchema, jsonBody(req));
  const specialOrder = await repo.moveSpecialOrder(id, change, actor);
  noStore(res);
  res.json({ message: `Request ${specialOrder.status}`, specialOrder });
}
