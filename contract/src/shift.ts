import { z } from 'zod';
import { parseMoneyInput, toCents } from './money';
import { RECEIPT_FORMATS } from './receipt';
import { TillIdSchema } from './till';
import { text } from './text';

// Shifts at the till (issue 57): a till's drawer from the float it was opened with to the count it
// was closed with. One open shift per till. While it is open, the till's cash sales and cash
// refunds (sales and returns carry the till's id) and its pay-ins and pay-outs (petty cash, each with
// a reason) move the cash the drawer should hold:
//   expected = float + cash taken - cash paid back + pay-ins - pay-outs
// Closing records what was counted and the variance (counted - expected), audited; the Z-report
// prints a shift's figures, or a day's shifts together.

/** The most a float, a count or a pay-in/out may be (dollars): a till's drawer, not a bank's. */
export const MAX_DRAWER_CENTS = 10_000_00;

const drawerCents = (label: string) =>
  z.unknown().transform((value, ctx) => {
    const dollars = parseMoneyInput(value);
    const cents = dollars === null ? null : toCents(dollars);
    if (cents === null || cents < 0 || cents > MAX_DRAWER_CENTS) {
      ctx.addIssue({ code: 'custom', message: `${label} must be an amount from 0 to ${MAX_DRAWER_CENTS / 100} with at most 2 decimals` });
      return z.NEVER;
    }
    return cents;
  });

/** A till's id, as the counter device names itself (issue 55). */
const ShiftTillIdSchema = TillIdSchema;

export const ShiftIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

// GET /api/admin/shifts?date=YYYY-MM-DD[&tillId=]: the shifts opened that shop day (a Z-report of the day).
export const ShiftsQuerySchema = z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD'), tillId: ShiftTillIdSchema.optional() }).strict();

// GET /api/admin/shifts/open?tillId=: the till's open shift, or null.
export const OpenShiftQuerySchema = z.object({ tillId: ShiftTillIdSchema }).strict();

// POST /api/admin/shifts {tillId, float}
export const ShiftOpenSchema = z.object({ tillId: ShiftTillIdSchema, float: drawerCents('float') }).strict();
export type ShiftOpenInput = z.input<typeof ShiftOpenSchema>;

// POST /api/admin/shifts/:id/close {counted}
export const ShiftCloseSchema = z.object({ counted: drawerCents('counted') }).strict();

export const PETTY_CASH_KINDS = ['pay_in', 'pay_out'] as const;
export type PettyCashKind = (typeof PETTY_CASH_KINDS)[number];
export const PETTY_CASH_LABELS: Record<PettyCashKind, string> = { pay_in: 'Pay-in', pay_out: 'Pay-out' };

// POST /api/admin/shifts/:id/petty-cash {kind, amount, reason}
export const PettyCashSchema = z
  .object({
    kind: z.enum(PETTY_CASH_KINDS, { error: 'kind must be pay_in or pay_out' }),
    amount: drawerCents('amount').refine((cents) => cents > 0, 'amount must be more than 0'),
    reason: text('reason', 200),
  })
  .strict();

export interface ShiftFigures {
  /** Sales taken in the shift, by how they were paid (dollars), and how many. */
  sales: { count: number; byMethod: Record<string, number> };
  /** Money paid back by returns in the shift, by how. */
  refunds: { count: number; byMethod: Record<string, number> };
  payIns: number;
  payOuts: number;
  /** The cash the drawer should hold: float + cash sales - cash refunds + pay-ins - pay-outs. */
  expected: number;
}

export interface PettyCashEntry {
  kind: PettyCashKind;
  amount: number;
  reason: string;
  at: string;
  by: string;
}

export interface Shift {
  _id: string;
  tillId: string;
  status: 'open' | 'closed';
  float: number;
  openedAt: string;
  openedBy: string;
  pettyCash: PettyCashEntry[];
  /** As of now for an open shift; as closed for a closed one. */
  figures: ShiftFigures;
  closedAt?: string;
  closedBy?: string;
  counted?: number;
  /** counted - expected: over (+) or short (-). */
  variance?: number;
}

export interface ShiftResponse {
  shift: Shift;
}

// The Z-report on the receipt printer (ESC/POS) or as a printable 80 mm page, as a sale's receipt:
//   GET /api/admin/shifts/:id/z-report?format=escpos|html          one shift (open: an X-report, not final)
//   GET /api/admin/shifts/z-report?date=YYYY-MM-DD&format=escpos|html   the day's shifts of every till, with the day's totals
export const ZReportQuerySchema = z.object({ format: z.enum(RECEIPT_FORMATS, { error: 'format must be escpos or html' }) }).strip();

/** A calendar day that exists (2026-02-30 does not). */
const ShopDateSchema = z
  .string({ error: 'date must be YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
  .refine((day) => {
    const at = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
  }, 'date must be a real day (YYYY-MM-DD)');

export const DayZReportQuerySchema = z.object({ date: ShopDateSchema, format: ZReportQuerySchema.shape.format }).strip();

/** The answer's header saying whether the report is final (every shift in it closed: a Z-report) or not (an X-report). */
export const Z_REPORT_FINAL_HEADER = 'X-Z-Report-Final';
