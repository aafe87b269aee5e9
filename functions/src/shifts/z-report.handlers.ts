import type { Request, Response } from 'express';
import { DayZReportQuerySchema, ShiftIdSchema, Z_REPORT_FINAL_HEADER, ZReportQuerySchema, type ReceiptFormat } from '@bookstore/contract';
import { requirePermission } from '../lib/auth';
import { HttpError } from '../lib/http-error';
import { parseWith } from '../lib/validate';
import { sendPrintout } from '../sales/receipts/printout';
import { receiptShop } from '../sales/receipts/receipts.repo';
import * as repo from './shifts.repo';
import { escposZReport, htmlZReport, type ZReportContent, zReportContent } from './z-report';

// The Z-report (issue 57): read by whoever may read the shifts (`sales.counter`, as the shifts
// list). A report is read, never recorded: printing it twice changes nothing.

function send(res: Response, format: ReceiptFormat, content: ZReportContent, name: string) {
  res.setHeader(Z_REPORT_FINAL_HEADER, content.final ? 'true' : 'false');
  sendPrintout(res, format, name, { escpos: () => escposZReport(content), html: () => htmlZReport(content) });
}

// GET /api/admin/shifts/:id/z-report?format=escpos|html
export async function shiftZReport(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const parsed = ShiftIdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, 'Shift not found');
  const { format } = parseWith(ZReportQuerySchema, req.query);
  const shift = await repo.getShift(parsed.data);
  if (!shift) throw new HttpError(404, 'Shift not found');
  send(res, format, zReportContent([shift], await receiptShop(), { now: new Date().toISOString() }), `z-report-${shift._id}`);
}

// GET /api/admin/shifts/z-report?date=YYYY-MM-DD&format=escpos|html
export async function dayZReport(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const { date, format } = parseWith(DayZReportQuerySchema, req.query);
  const shifts = await repo.shiftsOfDay(date);
  send(res, format, zReportContent(shifts, await receiptShop(), { day: date, now: new Date().toISOString() }), `z-report-${date}`);
}
