import { FailedMailQuerySchema, WaitingMailQuerySchema, type FailedMailPage, type ResendMailResult, type WaitingMailPage } from '@bookstore/contract';
import type { Request, Response } from 'express';
import { requirePermission } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { parseWith } from '../lib/validate';
import { failedMailPage, resendMail, waitingMailPage } from './mail.repo';

// GET /api/admin/mail/failed?cursor=&limit= (owner, manager): mail the shop could not send, the
// latest failure first, 25 a page (at most 100).
export async function listFailedMail(req: Request, res: Response) {
  requirePermission(req, 'mail.failed');
  const query = parseWith(FailedMailQuerySchema, req.query);
  const page = await failedMailPage(query);
  noStore(res);
  res.json(page satisfies FailedMailPage);
}

// GET /api/admin/mail/waiting?cursor=&limit= (owner, manager): mail not sent yet (retrying, stuck,
// or on its way), the soonest next try first.
export async function listWaitingMail(req: Request, res: Response) {
  requirePermission(req, 'mail.failed');
  const query = parseWith(WaitingMailQuerySchema, req.query);
  const page = await waitingMailPage(query);
  noStore(res);
  res.json(page satisfies WaitingMailPage);
}

/** A mail id as the queue's writers make them: a document id, no path. */
const MAIL_ID = /^[A-Za-z0-9._-]{1,200}$/;

// POST /api/admin/mail/:id/resend (owner, manager; audited): a failed mail is tried again by the
// sweeper within a minute. 409 MAIL_NOT_FAILED for mail that is not ERROR (a second press).
export async function resend(req: Request, res: Response) {
  const actor = requirePermission(req, 'mail.failed');
  const id = String(req.params.id ?? '');
  if (!MAIL_ID.test(id) || id === '.' || id === '..') throw new HttpError(400, 'id is not a mail id', { details: { id: ['id is not a mail id'] } });
  const result = await resendMail(id, actor);
  noStore(res);
  res.status(202).json(result satisfies ResendMailResult);
}
