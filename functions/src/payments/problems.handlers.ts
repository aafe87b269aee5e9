import { text, type OrderMutationResponse, type PaymentProblemsPage } from '@bookstore/contract';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { jsonBody, parseWith } from '../lib/validate';
import { orderIdParam } from '../orders/orders.handlers';
import { problemsPage, resolveProblem } from './problems.repo';

/** POST /api/admin/payment-problems/:id/resolve: staff settled it outside the shop (in Stripe). */
const ResolveProblemSchema = z.object({ note: text('Note', 500) }).strip();

const ProblemsQuerySchema = z.object({
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

// GET /api/admin/payment-problems?cursor=&limit= (issue 54): owner and manager (orders.refund: the
// people who can settle money), newest first, paged on the server.
export async function listProblems(req: Request, res: Response) {
  requirePermission(req, 'orders.refund');
  const query = parseWith(ProblemsQuerySchema, req.query);
  const page = await problemsPage(query.limit, query.cursor);
  noStore(res);
  res.json(page satisfies PaymentProblemsPage);
}

// POST /api/admin/payment-problems/:id/resolve {note}: settled outside the shop (in Stripe); audited.
export async function resolve(req: Request, res: Response) {
  const actor = requirePermission(req, 'orders.refund');
  const { note } = parseWith(ResolveProblemSchema, jsonBody(req));
  const order = await resolveProblem(orderIdParam(req), note, actor);
  noStore(res);
  res.json({ message: 'Payment problem settled', order } satisfies OrderMutationResponse);
}
