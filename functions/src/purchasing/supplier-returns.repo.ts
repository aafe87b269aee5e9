import { createHash } from 'node:crypto';
import type { SupplierReturn, SupplierReturnInput } from '@bookstore/contract';
import { appendAudit, logChainHead, openAudit, type AuditActor } from '../admin/audit.repo';
import type { BookDoc } from '../books/book-doc';
import { noAfterCommit, stageBookWrites } from '../books/book-writes';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { MAIL_COLLECTION, queued } from '../lib/mail-queue';
import { countReads } from '../lib/read-counter';
import { busy, TX_OPTIONS } from '../orders/orders.repo';
import { booksByIsbn, fieldError, lastReceiptId, lastReceipts, supplierReturns } from './purchasing-docs';
import { readSupplier } from './suppliers.repo';
import { paragraphsHtml } from '../lib/html';

// Returns to suppliers (issue 56): POST /api/admin/supplier-returns. One transaction under the
// device's returnId (supplierReturns/<returnId>: sent again, the same answer; another body, 422):
// copies leave the shelf through the book write path, never more than the book's stock (copies
// held for orders and pre-orders, and those set aside for special orders, are not in it), else 409
// NOT_ENOUGH_STOCK naming the ISBNs and nothing changes. The supplier is mailed the returns note
// (when it has an address); one audit event records the return.

const mail = () => db().collection(MAIL_COLLECTION);

interface StoredReturn extends Omit<SupplierReturn, '_id'> {
  requestHash: string;
  by: string;
}

const requestHash = (input: SupplierReturnInput) =>
  createHash('sha256').update(JSON.stringify({ supplier: input.supplierId, note: input.note ?? null, override: input.overrideWindow ?? false, lines: input.lines.map((l) => [l.isbn, l.quantity]) })).digest('hex');

const answerOf = (id: string, doc: StoredReturn): SupplierReturn => ({
  _id: id, supplierId: doc.supplierId, lines: doc.lines, ...(doc.note ? { note: doc.note } : {}), createdAt: doc.createdAt,
});

export async function returnToSupplier(actor: AuditActor, input: SupplierReturnInput): Promise<{ supplierReturn: SupplierReturn; replay: boolean }> {
  const ref = supplierReturns().doc(input.returnId);
  const hash = requestHash(input);
  let afterCommit = noAfterCommit;
  let head: { seq: number; hash: string } | null = null;
  const out = await db().runTransaction(async (tx) => {
    afterCommit = noAfterCommit;
    head = null;
    const snap = await tx.get(ref);
    countReads(1);
    const stored = snap.data() as StoredReturn | undefined;
    if (stored) {
      if (stored.requestHash !== hash) throw fieldError('returnId', 'This returnId belongs to another return', 'RETURN_ID_REUSED');
      return { supplierReturn: answerOf(input.returnId, stored), replay: true };
    }
    const supplier = await readSupplier(tx, input.supplierId);
    const found = await booksByIsbn(input.lines.map((l) => l.isbn), tx);
    const short = input.lines.filter((l) => ((found.get(l.isbn)?.data() as BookDoc | undefined)?.stock ?? 0) < l.quantity).map((l) => l.isbn);
    if (short.length > 0) {
      throw new HttpError(409, `Not enough copies on the shelf to return: ${short.join(', ')}`, { code: 'NOT_ENOUGH_STOCK', isbns: short });
    }
    // The supplier's returns window: copies last received from it longer ago are refused unless an
    // owner or a manager (the only roles that return) overrides it. A book never received from it
    // through a receipt (stock from before receiving was kept) has no date to count from.
    const now = new Date().toISOString();
    if (supplier.returnsWindowDays !== undefined && !input.overrideWindow) {
      const refs = input.lines.map((l) => lastReceipts().doc(lastReceiptId(input.supplierId, found.get(l.isbn)!.id)));
      const last = await tx.getAll(...refs);
      countReads(last.length);
      const oldest = Date.parse(now) - supplier.returnsWindowDays * 24 * 60 * 60 * 1000;
      const late = input.lines.filter((_, i) => last[i]!.exists && Date.parse(last[i]!.get('at') as string) < oldest).map((l) => l.isbn);
      if (late.length > 0) {
        throw new HttpError(409, `Received more than ${supplier.returnsWindowDays} days ago: ${late.join(', ')} (a manager may override the returns window)`, { code: 'OUTSIDE_RETURNS_WINDOW', isbns: late });
      }
    }
    const log = await openAudit(tx);
    const staged = await stageBookWrites(tx, input.lines.map((l) => ({ book: found.get(l.isbn)!, stockDelta: -l.quantity })), { purchasing: `supplierReturns/${input.returnId}` }, now);
    afterCommit = staged.write();
    const doc: StoredReturn = {
      requestHash: hash, supplierId: input.supplierId, lines: input.lines.map((l) => ({ isbn: l.isbn, bookId: found.get(l.isbn)!.id, quantity: l.quantity })),
      ...(input.note ? { note: input.note } : {}), by: actor.username, createdAt: now,
    };
    tx.create(ref, doc);
    if (supplier.email) {
      const titles = new Map([...found.values()].map((b) => [b.id, (b.data() as BookDoc).title]));
      const text = [
        'Hello,', '', `We are returning the following${supplier.accountNumber ? ` (account ${supplier.accountNumber})` : ''}:`,
        ...doc.lines.map((l) => `- ${l.quantity} x ${titles.get(l.bookId)} (ISBN ${l.isbn})`),
        ...(doc.note ? ['', doc.note] : []),
      ].join('\n');
      const html = paragraphsHtml(text);
      tx.create(mail().doc(`return-${input.returnId}`), queued({ to: supplier.email, message: { subject: `Returns note ${input.returnId.slice(0, 8).toUpperCase()}`, text, html } }));
    }
    const stock = (pick: 'before' | 'after') => Object.fromEntries(staged.results.map((r) => [r.id, r[pick]?.stock ?? 0]));
    appendAudit(log, actor, {
      action: 'supplier-return.create', target: `supplierReturns/${input.returnId}`,
      changes: {
        lines: { before: null, after: doc.lines }, stock: { before: stock('before'), after: stock('after') },
        ...(input.overrideWindow ? { overrideWindow: { before: null, after: true } } : {}),
      },
    }, now);
    head = log.head;
    return { supplierReturn: answerOf(input.returnId, doc), replay: false };
  }, TX_OPTIONS).catch(busy);
  if (head) logChainHead(head);
  await afterCommit();
  return out;
}
