import type { Request, Response } from 'express';
import { ReaderIdSchema, ReaderInputSchema, type ReaderResponse, type ReadersList } from '@bookstore/contract';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import * as repo from './readers.repo';

// The tills' card readers (issue 57): owners and managers register and remove them
// (`terminal.readers`); anyone at the counter (`sales.counter`) lists them to pick the till's.

// POST /api/admin/readers
export async function createReader(req: Request, res: Response) {
  const actor = requirePermission(req, 'terminal.readers');
  const input = parseWith(ReaderInputSchema, jsonBody(req));
  const reader = await repo.registerReader(actor, input);
  noStore(res);
  res.status(201).json({ reader } satisfies ReaderResponse);
}

// GET /api/admin/readers
export async function listReaders(req: Request, res: Response) {
  requirePermission(req, 'sales.counter');
  const list = await repo.listReaders();
  noStore(res);
  res.json({ readers: list } satisfies ReadersList);
}

// DELETE /api/admin/readers/:id
export async function deleteReader(req: Request, res: Response) {
  const actor = requirePermission(req, 'terminal.readers');
  const parsed = ReaderIdSchema.safeParse(req.params.id);
  if (!parsed.success) throw new HttpError(404, `No reader ${String(req.params.id)}`, { code: 'UNKNOWN_READER' });
  await repo.removeReader(actor, parsed.data);
  res.status(204).end();
}
