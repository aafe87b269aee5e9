import { INVALID_REGISTRATION_CODE, type Reader, type ReaderInput } from '@bookstore/contract';
import { recordAudit, type AuditActor } from '../admin/audit.repo';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { countReads } from '../lib/read-counter';
import { providerError, requireStripe } from '../payments/stripe-client';

// The tills' Stripe Terminal readers (issue 57): registered at Stripe through the official SDK
// (terminal.readers.create with the code the reader shows), then kept as readers/<id> with the till
// they stand at. Stripe's reader id stays on the server: the till names a reader by our id.

export const readers = () => db().collection('readers');

export interface ReaderDoc {
  stripeReaderId: string;
  label: string;
  tillId: string;
  deviceType: string | null;
  createdAt: string;
  by: string;
}

export const toReader = (id: string, doc: ReaderDoc): Reader => ({
  _id: id, stripeReaderId: doc.stripeReaderId, label: doc.label, tillId: doc.tillId, deviceType: doc.deviceType, createdAt: doc.createdAt,
});

export async function readerDoc(id: string): Promise<ReaderDoc | null> {
  const snap = await readers().doc(id).get();
  countReads(1);
  return snap.exists ? (snap.data() as ReaderDoc) : null;
}

/** Registers the reader at Stripe, then stores it for its till. A code Stripe refuses: 400 naming it, nothing stored. */
export async function registerReader(actor: AuditActor, input: { registrationCode: string; label: string; tillId: string }): Promise<Reader> {
  const { stripe } = requireStripe();
  let made;
  try {
    made = await stripe.terminal.readers.create({ registration_code: input.registrationCode, label: input.label, metadata: { tillId: input.tillId } });
  } catch (error) {
    const e = error as { statusCode?: number; param?: string; message?: string };
    if (e.statusCode === 400 && e.param === 'registration_code') {
      throw new HttpError(400, `Stripe does not know the registration code ${input.registrationCode}: type the code the reader shows`, {
        code: INVALID_REGISTRATION_CODE, details: { registrationCode: ['Stripe does not know this registration code'] },
      });
    }
    throw providerError(error, 'registering a Terminal reader');
  }
  const ref = readers().doc();
  const doc: ReaderDoc = { stripeReaderId: made.id, label: input.label, tillId: input.tillId, deviceType: made.device_type ?? null, createdAt: new Date().toISOString(), by: actor.username };
  await ref.create(doc);
  await recordAudit(actor, { action: 'reader.create', target: ref.path, changes: { reader: { before: null, after: { stripeReaderId: made.id, label: input.label, tillId: input.tillId } } } });
  return toReader(ref.id, doc);
}

export async function listReaders(): Promise<Reader[]> {
  const snap = await readers().orderBy('createdAt').limit(200).get();
  countReads(Math.max(1, snap.size));
  return snap.docs.map((d) => toReader(d.id, d.data() as ReaderDoc));
}

/** Removes the reader at Stripe (already gone there: fine) and here. */
export async function removeReader(actor: AuditActor, id: string): Promise<void> {
  const doc = await readerDoc(id);
  if (!doc) throw new HttpError(404, `No reader ${id}`, { code: 'UNKNOWN_READER' });
  const { stripe } = requireStripe();
  try {
    await stripe.terminal.readers.del(doc.stripeReaderId);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw providerError(error, 'removing a Terminal reader');
  }
  await readers().doc(id).delete();
  await recordAudit(actor, { action: 'reader.delete', target: `readers/${id}`, changes: { reader: { before: { stripeReaderId: doc.stripeReaderId, label: doc.label, tillId: doc.tillId }, after: null } } });
}

export type { ReaderInput };
