import type { Request, Response } from 'express';
import { AdminOrdersQuerySchema, normaliseEmail, OrderIdSchema, OrderStatusChangeSchema, type AdminOrdersPage, type DeskPreordersPage, type OrderMutationResponse, type OrderStatus } from '@bookstore/contract';
import { z } from 'zod';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import { orderIdParam } from './orders.handlers';
import * as repo from './orders.repo';
import { deskPreorders } from '../preorders/preorders.repo';
import { cancelWithRefund } from '../payments/cancel-refunds';

const MESSAGES: Record<OrderStatus, string> = {
  pending: 'Order is pending',
  confirmed: 'Order confirmed',
  shipped: 'Order shipped',
  delivered: 'Order delivered',
  cancelled: 'Order cancelled',
  refused: 'Order refused',
  ready_for_pickup: 'Order ready for pickup',
  collected: 'Order collected',
};

/** `q` is a customer's email (it has an @) or an order id. */
function search(q: string | undefined): { email?: string; orderId?: string } {
  if (!q) return {};
  if (q.includes('@')) {
    if (!z.email().max(254).safeParse(q).success) throw new HttpError(400, 'Search by a customer email or an order id');
    return { email: normaliseEmail(q) };
  }
  if (!OrderIdSchema.safeParse(q).success) throw new HttpError(400, 'Search by a customer email or an order id');
  return { orderId: q };
}

// GET /api/admin/orders?status=&q=&cursor=&limit=
export async function listOrders(req: Request, res: Response) {
  requirePermission(req, 'orders.desk');
  const query = parseWith(AdminOrdersQuerySchema, req.query);
  const page = await repo.deskPage({ status: query.status, limit: query.limit, cursor: query.cursor, ...search(query.q) });
  noStore(res);
  res.json(page satisfies AdminOrdersPage);
}

// POST /api/admin/orders/:id/status
export async function changeStatus(req: Request, res: Response) {
  const admin = requirePermission(req, 'orders.status');
  const orderId = orderIdParam(req);
  const { status, note } = parseWith(OrderStatusChangeSchema, jsonBody(req));
  // The customer reads the order's events: they name the role; the audit log names the person.
  const move = () => repo.transitionOrder({ orderId, to: status, note, by: { kind: 'admin', id: admin.role }, actor: admin });
  // Issue 54: the desk's cancel closes an unpaid card order's Checkout session first, as the
  // customer's does; issue 41: a paid card pre-order is refunded by its cancel (payments/cancel-refunds.ts).
  const order = status === 'cancelled' ? await cancelWithRefund(orderId, admin, move) : await move();
  noStore(res);
  res.json({ message: MESSAGES[status], order } satisfies OrderMutationResponse);
}

// POST /api/admin/orders/:id/ship-available (issue 41): the lines on hand now, the pre-orders later.
export async function shipAvailable(req: Request, res: Response) {
  const admin = requirePermission(req, 'orders.status');
  const order = await repo.shipAvailable(orderIdParam(req), admin);
  noStore(res);
  res.json({ message: 'Available items shipped', order } satisfies OrderMutationResponse);
}

const PreordersQuerySchema = z.object({
  state: z.enum(['waiting', 'allocated']).default('waiting'),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

// GET /api/admin/preorders?state=waiting|allocated&cursor=&limit= (issue 41): by publication date.
export async function listPreorders(req: Request, res: Response) {
  requirePermission(req, 'orders.desk');
  const query = parseWith(PreordersQuerySchema, req.query);
  const page = await deskPreorders(query.state, query.limit, query.cursor);
  noStore(res);
  res.json(page satisfies DeskPreordersPage);
}
