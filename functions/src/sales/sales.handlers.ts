import type { Request, Response } from 'express';
import {
  CounterBooksQuerySchema, IsbnInputSchema, NO_BOOK_WITH_ISBN, SaleIdSchema, SaleInputSchema, SaleReturnInputSchema, SalesListQuerySchema, SalesSummaryQuerySchema,
  type CounterBookResponse, type CounterBooksPage, type SaleResponse, type SaleReturnResponse, type SalesPage, type SalesSummary,
} from '@bookstore/contract';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import { counterBookByIsbn, counterBooksPage } from './counter-books.repo';
import * as repo from './sales.repo';
import { cancelTerminalSale, checkTerminalSale, refundTerminalReturn, startTerminalPayment } from './terminal';

// The counter (issue 39): every route needs `sales.counter` (owner, manager, bookseller); a
// customer's Firebase token is no staff token (401).

function saleIdParam(req: Request): string {
  const parsed = SaleIdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, 'Sale not found');
  return parsed.data;
}

// POST /api/admin/sales
export async function createSale(req: Request, res: Response) {
  const actor = requirePermission(req, 'sales.counter');
  const input = parseWith(SaleInputSchema, jsonBody(req));
  // Issue 57: a card-terminal sale is checked first (a sale the shop has is answered as it is) and,
  // once its copies are held, handed to its reader: 202 while the card is presented.
  const terminal = input.payment.method === 'card_terminal';
  if (terminal && !(await repo.getSale(input.saleId))) await checkTerminalSale(input);
  const placed = await repo.placeSale(actor, input);
  const sale = terminal && placed.sale.status === 'awaiting_payment' ? await startTerminalPayment(placed.sale._id, actor) : placed.sale;
  noStore(res);
  res.status(sale.status === 'awaiting_payment' ? 202 : placed.replayed ? 200 : 201).json({ sale } satisfies SaleResponse);
}

// GET /api/admin/sales?date=YYYY-MM-DD&cursor=&limit=
export async function listSales(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const query = parseWith(SalesListQuerySchema, req.query);
  const page = await repo.salesOfDay(query.date, query.limit, query.cursor);
  noStore(res);
  res.json(page satisfies SalesPage);
}

// GET /api/admin/sales/summary?date=YYYY-MM-DD
export async function summary(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const { date } = parseWith(SalesSummaryQuerySchema, req.query);
  const figures = await repo.salesSummary(date);
  noStore(res);
  res.json(figures satisfies SalesSummary);
}

// GET /api/admin/sales/books?since=&cursor=&limit=
export async function counterBooks(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const query = parseWith(CounterBooksQuerySchema, req.query);
  const page = await counterBooksPage(query);
  noStore(res);
  res.json(page satisfies CounterBooksPage);
}

// GET /api/admin/sales/books/:isbn
export async function counterBook(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const isbn = parseWith(IsbnInputSchema, req.params.isbn);
  const book = await counterBookByIsbn(isbn);
  if (!book) throw new HttpError(404, `No book has ISBN ${isbn}`, { code: NO_BOOK_WITH_ISBN, isbn });
  noStore(res);
  res.json({ book } satisfies CounterBookResponse);
}

// GET /api/admin/sales/:id
export async function getSale(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const sale = await repo.getSale(saleIdParam(req));
  if (!sale) throw new HttpError(404, 'Sale not found');
  noStore(res);
  res.json({ sale } satisfies SaleResponse);
}

// POST /api/admin/sales/:id/returns
export async function createReturn(req: Request, res: Response) {
  const actor = requirePermission(req, 'sales.counter');
  const saleId = saleIdParam(req);
  const input = parseWith(SaleReturnInputSchema, jsonBody(req));
  const { ret, sale: returned, replayed } = await repo.returnSale(actor, saleId, input);
  // Issue 57: a card-terminal sale's money goes back to the card through Stripe.
  const sale = returned.terminal && input.refundMethod === 'card_terminal' ? await refundTerminalReturn(saleId, ret) : returned;
  noStore(res);
  res.status(replayed ? 200 : 201).json({ return: ret, sale } satisfies SaleReturnResponse);
}

// POST /api/admin/sales/:id/cancel  (issue 57: the till's Cancel while the reader waits for the card)
export async function cancelSale(req: Request, res: Response) {
  const actor = requirePermission(req, 'sales.counter');
  const sale = await cancelTerminalSale(actor, saleIdParam(req));
  noStore(res);
  res.json({ sale } satisfies SaleResponse);
}
