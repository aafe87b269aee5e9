import type { Request, Response } from 'express';
import { ReceiptEmailInputSchema, ReceiptQuerySchema, SaleIdSchema, type ReceiptEmailResponse } from '@bookstore/contract';
import { requirePermission } from '../../lib/auth';
import { noStore } from '../../lib/cache';
import { HttpError } from '../../lib/http-error';
import { jsonBody, parseWith } from '../../lib/validate';
import { escposReceipt, htmlReceipt } from './receipt';
import { sendPrintout } from './printout';
import { mailReceipt, printReceipt, receiptShop } from './receipts.repo';

// Receipts (issue 57): the counter's staff (`sales.counter`), as every sales route.

function saleIdParam(req: Request): string {
  const parsed = SaleIdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, 'Sale not found');
  return parsed.data;
}

// GET /api/admin/sales/:id/receipt?format=escpos|html
export async function getReceipt(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const saleId = saleIdParam(req);
  // The format is checked before the print is counted: a bad request prints nothing.
  const { format } = parseWith(ReceiptQuerySchema, req.query);
  const content = await printReceipt(saleId, await receiptShop());
  if (!content) throw new HttpError(404, 'Sale not found');
  res.setHeader('X-Receipt-Copy', content.copy ? 'true' : 'false');
  sendPrintout(res, format, `receipt-${saleId}`, { escpos: () => escposReceipt(content), html: () => htmlReceipt(content) });
}

// POST /api/admin/sales/:id/email {email}
export async function emailReceipt(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const saleId = saleIdParam(req);
  const { email } = parseWith(ReceiptEmailInputSchema, jsonBody(req));
  if (!(await mailReceipt(saleId, email, await receiptShop()))) throw new HttpError(404, 'Sale not found');
  noStore(res);
  res.status(202).json({ message: `The receipt is on its way to ${email}` } satisfies ReceiptEmailResponse);
}
