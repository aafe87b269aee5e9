import type { Request, Response } from 'express';
import type { Firestore } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions/logger';
import { db } from './firebase';
import { OUTAGE_RETRY_AFTER_S } from './http-error';
import { countReads } from './read-counter';

// GET /api/health: one Firestore read (a document that need not exist) under a deadline. Answering
// without touching Firestore told an operator nothing; waiting on Firestore without a deadline
// would hang the probe for the client's whole retry schedule (a minute and more) when Firestore is
// unreachable. 503 + Retry-After inside HEALTH_DEADLINE_MS, so an uptime check sees the outage.

export const HEALTH_DEADLINE_MS = 2500;
const PROBE = 'health/probe';

/** Resolves with how long the read took, or rejects at the deadline (the read carries on, unawaited). */
export async function probeFirestore(firestore: Firestore, deadlineMs = HEALTH_DEADLINE_MS): Promise<number> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    await Promise.race([firestore.doc(PROBE).get(), deadline]);
    return Date.now() - started;
  } finally {
    clearTimeout(timer);
  }
}

export async function health(_req: Request, res: Response): Promise<void> {
  res.set('Cache-Control', 'no-store');
  try {
    const ms = await probeFirestore(db());
    countReads(1);
    res.json({ ok: true, firestoreMs: ms });
  } catch (error) {
    logger.error('Health check failed: Firestore did not answer', { check: 'firestore', deadlineMs: HEALTH_DEADLINE_MS, error: String((error as Error)?.message ?? error) });
    res.set('Retry-After', String(OUTAGE_RETRY_AFTER_S)).status(503).json({ ok: false, message: 'The shop cannot reach its database right now. Please try again shortly.' });
  }
}
