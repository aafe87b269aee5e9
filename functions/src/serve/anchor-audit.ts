import { logger } from 'firebase-functions/logger';
import { addressOf, anchorAuditHead } from '../admin/audit-anchor';
import { auditAnchorTo, mailFrom } from '../config';
import { bucket } from '../lib/firebase';

// The `anchorAudit` function's code (lib/anchor-audit.js): once a day, the audit chain's head to
// the log, to Storage and to the owners' mailbox (admin/audit-anchor.ts).
export default async function run(): Promise<void> {
  const to = auditAnchorTo.value() || addressOf(mailFrom.value());
  const { anchor, stored, mailed } = await anchorAuditHead(bucket(), to);
  logger.info('Audit chain anchored', { auditSeq: anchor.seq, auditHash: anchor.hash, day: anchor.day, stored, mailed });
}
