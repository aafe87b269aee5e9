import type { Request, Response } from 'express';
import { OpenShiftQuerySchema, PettyCashSchema, ShiftCloseSchema, ShiftIdSchema, ShiftOpenSchema, ShiftsQuerySchema, type ShiftResponse } from '@bookstore/contract';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import * as repo from './shifts.repo';

// Shifts (issue 57): whoever works the counter (`sales.counter`) opens, pays in and out, and
// closes a till's shift; every change is audited.

const actorOf = (req: Request) => {
  const staff = requirePermission(req, 'sales.counter');
  return { username: staff.username, role: staff.role };
};

function shiftId(req: Request): string {
  const parsed = ShiftIdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, 'Shift not found');
  return parsed.data;
}

// POST /api/admin/shifts {tillId, float}
export async function openShift(req: Request, res: Response) {
  const actor = actorOf(req);
  const input = parseWith(ShiftOpenSchema, jsonBody(req));
  const shift = await repo.openShift(actor, input.tillId, input.float);
  noStore(res);
  res.status(201).json({ shift } satisfies ShiftResponse);
}

// GET /api/admin/shifts?date=YYYY-MM-DD[&tillId=]
export async function listShifts(req: Request, res: Response) {
  actorOf(req);
  const query = parseWith(ShiftsQuerySchema, req.query);
  noStore(res);
  res.json({ shifts: await repo.shiftsOfDay(query.date, query.tillId) });
}

// GET /api/admin/shifts/open?tillId=: the till's open shift, or null
export async function openOfTill(req: Request, res: Response) {
  actorOf(req);
  const { tillId } = parseWith(OpenShiftQuerySchema, req.query);
  noStore(res);
  res.json({ shift: await repo.openShiftOf(tillId) });
}

// GET /api/admin/shifts/:id
export async function getShift(req: Request, res: Response) {
  actorOf(req);
  const shift = await repo.getShift(shiftId(req));
  if (!shift) throw new HttpError(404, 'Shift not found');
  noStore(res);
  res.json({ shift } satisfies ShiftResponse);
}

// POST /api/admin/shifts/:id/petty-cash {kind, amount, reason}
export async function pettyCash(req: Request, res: Response) {
  const actor = actorOf(req);
  const id = shiftId(req);
  const input = parseWith(PettyCashSchema, jsonBody(req));
  const shift = await repo.addPettyCash(actor, id, input);
  noStore(res);
  res.status(201).json({ shift } satisfies ShiftResponse);
}

// POST /api/admin/shifts/:id/close {counted}
export async function closeShift(req: Request, res: Response) {
  const actor = actorOf(req);
  const id = shiftId(req);
  const { counted } = parseWith(ShiftCloseSchema, jsonBody(req));
  const shift = await repo.closeShift(actor, id, counted);
  noStore(res);
  res.json({ shift } satisfies ShiftResponse);
}
