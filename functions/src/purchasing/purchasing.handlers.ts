import type { Request, Response } from 'express';
import {
  SalesSummaryQuerySchema, type DayMargin,
  PurchaseOrderCreateSchema, PurchaseOrdersQuerySchema, PurchasingIdSchema, PurchasingPageQuerySchema, ReceiptSchema, SupplierCreateSchema,
  SupplierPatchSchema, SupplierReturnSchema, purchaseOrderFromStored,
} from '@bookstore/contract';
import { lookupIsbn } from '../books/isbn-lookup';
import { pageOfUnlistedBooks } from '../books/unlisted-books';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import * as orders from './purchase-orders.repo';
import { receive } from './receipts.repo';
import { reorderSuggestions } from './reorder.repo';
import { returnToSupplier } from './supplier-returns.repo';
import * as suppliers from './suppliers.repo';
import { dayMargin } from './margin.repo';
import { stockValuation } from './valuation.repo';

// Buying (issue 56), under /api/admin: suppliers, purchase orders, the reorder suggestions, returns
// and the stock's value are owners' and managers' ('purchasing.manage': they show costs);
// receiving a delivery is every role's ('stock.receive': its answer holds no cost).

const buyer = (req: Request) => {
  const staff = requirePermission(req, 'purchasing.manage');
  return { username: staff.username, role: staff.role };
};

function idParam(req: Request, what: string): string {
  const parsed = PurchasingIdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, `${what} not found`);
  return parsed.data;
}

// POST /api/admin/suppliers {name, email?, accountNumber?, returnsWindowDays?, notes?}
export async function createSupplier(req: Request, res: Response) {
  const actor = buyer(req);
  const input = parseWith(SupplierCreateSchema, jsonBody(req));
  res.status(201).json({ message: 'Supplier added', supplier: await suppliers.createSupplier(actor, input) });
}

// GET /api/admin/suppliers?cursor=&limit=
export async function listSuppliers(req: Request, res: Response) {
  buyer(req);
  const { limit, cursor } = parseWith(PurchasingPageQuerySchema, req.query);
  noStore(res);
  res.json(await suppliers.pageOfSuppliers(limit, cursor));
}

// PATCH /api/admin/suppliers/:id
export async function patchSupplier(req: Request, res: Response) {
  const actor = buyer(req);
  const id = idParam(req, 'Supplier');
  const patch = parseWith(SupplierPatchSchema, jsonBody(req));
  res.json({ message: 'Supplier saved', supplier: await suppliers.patchSupplier(actor, id, patch) });
}

/** A line's title when the catalogue has no book of that ISBN: Open Library's, else the ISBN itself. */
async function titleFor(isbn: string, who: string): Promise<string> {
  try {
    const { value } = await lookupIsbn(isbn, who);
    if (value?.title) return value.title;
  } catch {
    // Open Library busy or unreachable (or this person's lookups used up): the ISBN says enough.
  }
  return `ISBN ${isbn}`;
}

// POST /api/admin/purchase-orders {supplierId, lines: [{isbn, quantity, unitCost}], note?}
export async function createPurchaseOrder(req: Request, res: Response) {
  const actor = buyer(req);
  const input = parseWith(PurchaseOrderCreateSchema, jsonBody(req));
  const purchaseOrder = await orders.createPurchaseOrder(actor, input, (isbn) => titleFor(isbn, `admin:${actor.username}`));
  res.status(201).json({ message: 'Purchase order drafted', purchaseOrder });
}

// GET /api/admin/purchase-orders?status=&cursor=&limit=
export async function listPurchaseOrders(req: Request, res: Response) {
  buyer(req);
  const { status, limit, cursor } = parseWith(PurchaseOrdersQuerySchema, req.query);
  noStore(res);
  res.json(await orders.pageOfPurchaseOrders(status, limit, cursor));
}

// GET /api/admin/purchase-orders/:id
export async function getPurchaseOrder(req: Request, res: Response) {
  buyer(req);
  const id = idParam(req, 'Purchase order');
  const doc = await orders.readPurchaseOrder(id);
  if (!doc) throw new HttpError(404, 'Purchase order not found');
  noStore(res);
  res.json({ purchaseOrder: purchaseOrderFromStored(id, doc) });
}

// GET /api/admin/purchase-orders/:id/csv   ISBN,title,quantity (what the supplier is sent)
export async function purchaseOrderCsv(req: Request, res: Response) {
  buyer(req);
  const id = idParam(req, 'Purchase order');
  const doc = await orders.readPurchaseOrder(id);
  if (!doc) throw new HttpError(404, 'Purchase order not found');
  noStore(res);
  res.set('Content-Type', 'text/csv; charset=utf-8');
  res.set('Content-Disposition', `attachment; filename="purchase-order-${id}.csv"`);
  res.send(orders.purchaseOrderCsv(doc));
}

// POST /api/admin/purchase-orders/:id/send, POST /api/admin/purchase-orders/:id/cancel
export function movePurchaseOrder(to: 'sent' | 'cancelled') {
  return async (req: Request, res: Response) => {
    const actor = buyer(req);
    const id = idParam(req, 'Purchase order');
    const moved = await orders.movePurchaseOrder(actor, id, to);
    res.json({ message: to === 'sent' ? (moved.mailed ? 'Purchase order sent to the supplier' : 'Purchase order marked sent (the supplier has no email address)') : 'Purchase order cancelled', ...moved });
  };
}

// GET /api/admin/reorder-suggestions
export async function listReorderSuggestions(req: Request, res: Response) {
  buyer(req);
  noStore(res);
  res.json({ suggestions: await reorderSuggestions() });
}

// POST /api/admin/receipts {receiptId, purchaseOrderId?, supplierId?, lines: [{isbn, quantity, unitCost?, title?}]}
export async function createReceipt(req: Request, res: Response) {
  const staff = requirePermission(req, 'stock.receive');
  const input = parseWith(ReceiptSchema, jsonBody(req));
  const { receipt, replay } = await receive({ username: staff.username, role: staff.role }, input);
  noStore(res);
  res.status(replay ? 200 : 201).json({ message: replay ? 'Already received' : 'Received', receipt });
}

// GET /api/admin/unlisted-books?cursor=&limit=: books received that the catalogue does not list
// (every receiving role: titles and copies, no cost), so staff can list them in Manage Books.
export async function listUnlistedBooks(req: Request, res: Response) {
  requirePermission(req, 'stock.receive');
  const { limit, cursor } = parseWith(PurchasingPageQuerySchema, req.query);
  noStore(res);
  res.json(await pageOfUnlistedBooks(limit, cursor));
}

// GET /api/admin/stock/valuation
export async function getValuation(req: Request, res: Response) {
  buyer(req);
  noStore(res);
  res.json(await stockValuation());
}

// GET /api/admin/stock/margin?date=YYYY-MM-DD: the day's gross margin (cost is the buyers' only).
export async function getMargin(req: Request, res: Response) {
  buyer(req);
  const { date } = parseWith(SalesSummaryQuerySchema, req.query);
  noStore(res);
  res.json(await dayMargin(date) satisfies DayMargin);
}

// POST /api/admin/supplier-returns {returnId, supplierId, lines: [{isbn, quantity}], note?}
export async function createSupplierReturn(req: Request, res: Response) {
  const actor = buyer(req);
  const input = parseWith(SupplierReturnSchema, jsonBody(req));
  const { supplierReturn, replay } = await returnToSupplier(actor, input);
  noStore(res);
  res.status(replay ? 200 : 201).json({ message: replay ? 'Already returned' : 'Returned', supplierReturn });
}
