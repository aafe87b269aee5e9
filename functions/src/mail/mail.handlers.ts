import { FailedMailQuerySchema, type FailedMailPage } from '@bookstore/contract';
import type { Request, Response } from 'express';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { parseWith } from '../lib/validate';
import { failedMailPage } from './mail.repo';

// GET /api/admin/mail/failed?cursor=&limit= (owner, manager): mail the shop could not send, the
// latest failure first, 25 a page (at most 100).
export async function listFailedMail(req: Request, res: Response) {
  requirePermission(req, 'mail.failed');
  const query = parseWith(FailedMailQuerySchema, req.query);
  const page = await failedMailPage(query);
  noStore(res);
  res.json(page satisfies FailedMailPage);
}
