import type { Request, Response } from 'express';
import {
  EMAIL_NOT_VERIFIED_MESSAGE, SpecialOrderAcceptSchema, SpecialOrderRequestSchema, SpecialOrdersQuerySchema, SpecialOrderStatusSchema,
  type SpecialOrdersPage,
} from '@bookstore/contract';
import { z } from 'zod';
import { lookupIsbn } from '../books/isbn-lookup';
import { requireCustomer, requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import * as repo from './special-orders.repo';

const IdSchema = z.string().regex(/^[A-Za-z0-9]{1,40}$/);
function specialIdParam(req: Request): string {
  const parsed = IdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, 'Special order not found');
  return parsed.data;
}

/** The title the shopper gave, else Open Library's (when it answers), else the ISBN itself. */
async function titleFor(isbn: string, given: string | undefined, who: string): Promise<string> {
  if (given) return given;
  try {
    const { value } = await lookupIsbn(isbn, who);
    if (value?.title) return value.title;
  } catch {
    // Open Library busy or unreachable: the request is still worth taking; the shop looks it up.
  }
  return `ISBN ${isbn}`;
}

// POST /api/special-orders {isbn, title?, quantity, note?}
export async function createSpecialOrder(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  if (!customer.emailVerified) throw new HttpError(403, EMAIL_NOT_VERIFIED_MESSAGE, { code: 'EMAIL_NOT_VERIFIED' });
  const input = parseWith(SpecialOrderRequestSchema, jsonBody(req));
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
