import type { Request, Response } from 'express';
import { OrderInputSchema } from '@bookstore/contract';
import { z } from 'zod';
import { requireCustomer, requireCustomerOrAdmin } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import * as repo from './orders.repo';

const IdempotencyKeySchema = z.string().regex(/^[A-Za-z0-9_.:-]{8,128}$/);

function idempotencyKey(req: Request): string | undefined {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return undefined;
  const parsed = IdempotencyKeySchema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, 'Idempotency-Key must be 8 to 128 letters, digits or -_.:');
  return parsed.data;
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

// POST /api/orders
export async function createOrder(req: Request, res: Response) {
  const customer = await requireCustomer(req);
  const key = idempotencyKey(req);
  const input = parseWith(OrderInputSchema, jsonBody(req));
  if (!sameEmail(input.email, customer.email)) {
    throw new HttpError(403, 'The order email must be the email you signed in with');
  }
  const repeated = input.productIDs.filter((id, i) => input.productIDs.indexOf(id) !== i);
  if (repeated.length > 0) {
    throw new HttpError(400, `Repeated book ids: ${[...new Set(repeated)].join(', ')}`, {
      details: { productIDs: [...new Set(repeated)] },
    });
  }
  const { order, replayed } = await repo.placeOrder(customer, input, key);
  noStore(res);
  if (replayed) res.set('Idempotent-Replayed', 'true');
  res.status(replayed ? 200 : 201).json(order);
}

// GET /api/orders/email/:email
export async function ordersByEmail(req: Request, res: Response) {
  const email = String(req.params.email ?? '');
  if (!z.email().max(254).safeParse(email).success) throw new HttpError(400, 'Email is not valid');
  const caller = await requireCustomerOrAdmin(req);
  let orders;
  if ('admin' in caller) {
    orders = await repo.ordersByEmail(email.trim().toLowerCase());
  } else {
    if (!sameEmail(email, caller.customer.email)) throw new HttpError(403, 'You can only see your own orders');
    // By uid, never by email alone: anyone can open an unverified account with someone else's address.
    orders = await repo.ordersOfUser(caller.customer.uid);
  }
  noStore(res);
  res.json(orders);
}
