import { shopDay } from '@bookstore/contract';
import { db, type bucket } from '../lib/firebase';
import { MAIL_COLLECTION, queued } from '../lib/mail-queue';
import { auditHeadRef, logChainHead } from './audit.repo';
import { EMPTY_HEAD, type ChainHead } from './audit-chain';
import { isAlreadyExists } from '../lib/errors';

// The audit chain's daily anchor (issue 55, decision 036): once a day the `anchorAudit` function
// copies the chain's head (seq, hash) to three places outside the `audit` collection:
//   1. the function's log (Cloud Logging), as every append already does;
//   2. a Storage object, audit-anchors/<day>.json, written once (a second write of the day is
//      refused by its precondition, so the day's first anchor stands);
//   3. a mail to the owners' mailbox (AUDIT_ANCHOR_TO), which nobody holding the project's
//      credentials can reach back and edit.
// `npm run audit:verify -- --stored-anchors` checks the chain against every stored anchor: a chain
// rewritten from before an anchored event, or cut back past one, fails. What the anchors cannot
// catch: a rewrite of events newer than the last anchor (up to a day's events) when the Storage
// objects are rewritten too; the mailed copies still show it to an owner who compares them.

type Bucket = ReturnType<typeof bucket>;

export const ANCHOR_PREFIX = 'audit-anchors/';

export interface AuditAnchor extends ChainHead {
  /** The shop's day the anchor was taken on. */
  day: string;
  /** When it was taken (ISO). */
  at: string;
}

const HASH = /^[0-9a-f]{64}$/;

/** The address inside `Name <address>` (or the bare address). */
export const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();

/** The chain's head as stored now (EMPTY_HEAD before the first event). */
async function currentHead(): Promise<ChainHead> {
  const stored = (await auditHeadRef().get()).data() as Partial<ChainHead> | undefined;
  return typeof stored?.seq === 'number' && typeof stored.hash === 'string' ? { seq: stored.seq, hash: stored.hash } : EMPTY_HEAD;
}

const isPreconditionFailed = (error: unknown) => (error as { code?: number }).code === 412;

/**
 * Takes today's anchor: logs the head, stores it in Storage once a day and mails it to `to` once a
 * day (the mail's id is the day's). A run again the same day changes nothing and says so.
 */
export async function anchorAuditHead(storage: Bucket, to: string, now = new Date()): Promise<{ anchor: AuditAnchor; stored: boolean; mailed: boolean }> {
  const head = await currentHead();
  const anchor: AuditAnchor = { ...head, day: shopDay(now), at: now.toISOString() };
  logChainHead(head);
  let stored = true;
  try {
    await storage.file(`${ANCHOR_PREFIX}${anchor.day}.json`).save(JSON.stringify(anchor), {
      contentType: 'application/json', resumable: false, preconditionOpts: { ifGenerationMatch: 0 },
    });
  } catch (error) {
    if (!isPreconditionFailed(error)) throw error;
    stored = false;
  }
  let mailed = true;
  try {
    const text = [
      `The shop's audit log on ${anchor.day}: event ${anchor.seq} is the newest, with hash`,
      anchor.hash,
      '',
      'Keep this mail. To check that no audit event up to it was changed or removed since:',
      `  npm run audit:verify -- --project <project-id> --anchor ${anchor.seq}:${anchor.hash}`,
    ].join('\n');
    await db().collection(MAIL_COLLECTION).doc(`audit-anchor-${anchor.day}`).create(queued({
      to, message: { subject: `Audit log anchor ${anchor.day}: event ${anchor.seq}`, text, html: `<pre>${text}</pre>` },
    }));
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    mailed = false;
  }
  return { anchor, stored, mailed };
}

/** Every anchor stored in Storage (one a day, so a few hundred a year); malformed ones are named. */
export async function storedAnchors(storage: Bucket): Promise<{ anchors: AuditAnchor[]; malformed: string[] }> {
  const [files] = await storage.getFiles({ prefix: ANCHOR_PREFIX });
  const anchors: AuditAnchor[] = [];
  const malformed: string[] = [];
  for (const file of files) {
    const [bytes] = await file.download();
    try {
      const parsed = JSON.parse(bytes.toString('utf8')) as Partial<AuditAnchor>;
      if (typeof parsed.seq === 'number' && Number.isInteger(parsed.seq) && parsed.seq >= 0 && typeof parsed.hash === 'string' && HASH.test(parsed.hash)) {
        anchors.push({ seq: parsed.seq, hash: parsed.hash, day: String(parsed.day ?? ''), at: String(parsed.at ?? '') });
        continue;
      }
    } catch {
      // named below
    }
    malformed.push(file.name);
  }
  return { anchors, malformed };
}
