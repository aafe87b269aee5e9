import type { Request, Response } from 'express';
import {
  CounterBooksQuerySchema, CounterSettingsSchema, fromCents, GiftCardReserveSchema, type CounterSettingsResponse, type GiftCardReserveResponse, IsbnInputSchema, NO_BOOK_WITH_ISBN, SaleIdSchema, SaleInputSchema, SaleReturnInputSchema, SalesListQuerySchema, SalesSummaryQuerySchema,
  type CounterBookResponse, type CounterBooksPage, type SaleResponse, type SaleReturnResponse, type SalesPage, type SalesSummary,
} from '@bookstore/contract';
import { requirePermission, requireSensitive } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import { counterBookByIsbn, counterBooksPage } from './counter-books.repo';
import { readCounterAllowance, saveCounterAllowance } from './allowance';
import { tillAuthority } from './approval';
import { reserveCodes } from './gift-card-codes';
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
  const caller = requirePermission(req, 'sales.counter');
  const input = parseWith(SaleInputSchema, jsonBody(req));
  const terminal = input.payment.method === 'card_terminal';
  // A sale the shop has is answered as it was (placeSale's replay): its approval is not checked
  // again (a code is spent once), nor its reader (issue 57: checked before its copies are held).
  const known = input.approval || terminal ? await repo.getSale(input.saleId) : null;
  const who = await tillAuthority(req, caller, known ? { ...input, approval: undefined } : input);
  if (terminal && !known) await checkTerminalSale(input);
  const placed = await repo.placeSale(who.maker, input, who);
  // Issue 57: once its copies are held, a card-terminal sale is handed to its reader: 202 while the card is presented.
  const sale = terminal && placed.sale.status === 'awaiting_payment' ? await startTerminalPayment(placed.sale._id, who.maker) : placed.sale;
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
  const caller = requirePermission(req, 'sales.counter');
  const saleId = saleIdParam(req);
  const input = parseWith(SaleReturnInputSchema, jsonBody(req));
  const who = await tillAuthority(req, caller, { ...(input.approval && !(input.returnId && (await repo.returnExists(input.returnId))) ? { approval: input.approval } : {}) });
  const { ret, sale: returned, replayed } = await repo.returnSale(who.maker, saleId, input, who);
  // Issue 57: a card-terminal sale's money goes back to the card through Stripe.
  const sale = returned.terminal && input.refundMethod === 'card_terminal' ? await refundTerminalReturn(saleId, ret) : returned;
  noStore(res);
  res.status(replayed ? 200 : 201).json({ return: ret, sale } satisfies SaleReturnResponse);
}

// POST /api/admin/gift-cards/reserve {count, tillId} (issue 55): codes this till may sell offline, each once.
export async function reserveGiftCardCodes(req: Request, res: Response) {
  const caller = requirePermission(req, 'sales.counter');
  const { count, tillId } = parseWith(GiftCardReserveSchema, jsonBody(req));
  const codes = await reserveCodes(caller.username, tillId, count);
  noStore(res);
  res.status(201).json({ codes, tillId } satisfies GiftCardReserveResponse);
}

// GET /api/admin/settings/counter (owner, manager; issue 55)
export async function getCounterSettings(req: Request, res: Response) {
  requirePermission(req, 'settings.fulfilment');
  const cents = await readCounterAllowance();
  noStore(res);
  res.json({ allowance: fromCents(cents) } satisfies CounterSettingsResponse);
}

// PUT /api/admin/settings/counter {allowance}: what a bookseller may issue or pay out a day on a till
export async function putCounterSettings(req: Request, res: Response) {
  const actor = requireSensitive(req, 'settings.fulfilment');
  const { allowance } = parseWith(CounterSettingsSchema, jsonBody(req));
  const saved = await saveCounterAllowance(actor, allowance);
  noStore(res);
  res.json({ allowance: fromCents(saved) } satisfies CounterSettingsResponse);
}

// POST /api/admin/sales/:id/cancel  (issue 57: the till's Cancel while the reader waits for the card)
export async function cancelSale(req: Request, res: Response) {
  const actor = requirePermission(req, 'sales.counter');
  const sale = await cancelTerminalSale(actor, saleIdParam(req));
  noStore(res);
  res.json({ sale } satisfies SaleResponse);
}
