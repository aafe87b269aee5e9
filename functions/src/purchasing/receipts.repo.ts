import { createHash } from 'node:crypto';
import {
  movingAverageCents, type Receipt, type ReceiptInput, type ReceiptLine, type StoredPurchaseOrder, type StoredSpecialOrder,
} from '@bookstore/contract';
import { FieldPath, type QueryDocumentSnapshot, type Transaction } from 'firebase-admin/firestore';
import { appendAudit, logChainHead, openAudit, type AuditActor } from '../admin/audit.repo';
import type { BookDoc } from '../books/book-doc';
import { noAfterCommit, stageBookWrites, writeUnlistedStock, type BookChange } from '../books/book-writes';
import { readUnlisted, unlistedCostId, unlistedTitle, type UnlistedBookDoc } from '../books/unlisted-books';
import { db } from '../lib/firebase';
import { HttpError } from '../lib/http-error';
import { runTxQuery } from '../lib/queries';
import { countReads } from '../lib/read-counter';
import { busy, TX_OPTIONS } from '../orders/orders.repo';
import { SPECIAL_ORDERS_COLLECTION } from '../special-orders/order-link';
import { receiveForRequest } from '../special-orders/special-orders.repo';
import { bookCosts, booksByIsbn, fieldError, lastReceiptId, lastReceipts, purchaseOrders, receiptCosts, receipts, type BookCostDoc } from './purchasing-docs';
import { readSupplier } from './suppliers.repo';

// Receiving a delivery (issue 56): POST /api/admin/receipts. ONE transaction per receipt, under the
// device's receiptId (receipts/<receiptId>): a receipt sent again finds its document and answers
// what it answered (another body under the same id: 422), so a scanner's retries and a queue
// flushed twice receive once. The copies of each line go, in order:
//   1. to special orders 'ordered' for that ISBN, oldest first (special-orders.repo.ts
//      receiveForRequest: counted, 'arrived' when complete, the shopper mailed): set aside, never
//      the book's stock;
//   2. to the book's stock through the book write path (book-writes.ts), which gives them to the
//      oldest waiting pre-orders first (preorders.repo.ts; mailed) and leaves the rest on the shelf;
//      an ISBN no book has is counted on its unlisted book (unlistedBooks/<isbn13>, decision 056),
//      made by its first copies, never seen by shoppers, taken over by the book staff create with it.
// The purchase order's lines count what arrived; each book's moving-average cost (bookCosts) moves
// with the copies that reached its stock; the unit costs are kept in receiptCosts/<receiptId>; one
// audit event records the receipt.

interface StoredReceipt {
  requestHash: string;
  purchaseOrderId?: string;
  supplierId?: string;
  lines: (ReceiptLine & { bookId?: string; specialOrderIds: string[] })[];
  by: string;
  createdAt: string;
}

const specialOrders = () => db().collection(SPECIAL_ORDERS_COLLECTION);

/** What identifies the request's content (its lines as parsed: ISBN-13, cents), for the replay check. */
const requestHash = (input: ReceiptInput) =>
  createHash('sha256').update(JSON.stringify({ po: input.purchaseOrderId ?? null, supplier: input.supplierId ?? null, lines: input.lines.map((l) => [l.isbn, l.quantity, l.unitCost ?? null, l.title ?? null]) })).digest('hex');

const answerOf = (id: string, doc: StoredReceipt): Receipt => ({
  _id: id,
  lines: doc.lines.map((l) => ({ isbn: l.isbn, received: l.received, toSpecialOrders: l.toSpecialOrders, toPreorders: l.toPreorders, toShelf: l.toShelf, ...(l.unlisted ? { unlisted: true as const } : {}) })),
});

/** The oldest 'ordered' special orders for `isbn` (index: isbn, status, createdAt, id); at most `limit` (each takes a copy at least). */
async function orderedRequests(tx: Transaction, isbn: string, limit: number): Promise<QueryDocumentSnapshot[]> {
  const query = specialOrders().where('isbn', '==', isbn).where('status', '==', 'ordered').orderBy('createdAt').orderBy(FieldPath.documentId()).limit(limit);
  return (await runTxQuery(tx, query)).docs;
}

export async function receive(actor: AuditActor, input: ReceiptInput): Promise<{ receipt: Receipt; replay: boolean }> {
  const ref = receipts().doc(input.receiptId);
  const hash = requestHash(input);
  let afterCommit = noAfterCommit;
  let head: { seq: number; hash: string } | null = null;
  const out = await db().runTransaction(async (tx) => {
    afterCommit = noAfterCommit;
    head = null;
    // ---- reads ----
    const snap = await tx.get(ref);
    countReads(1);
    const stored = snap.data() as StoredReceipt | undefined;
    if (stored) {
      if (stored.requestHash !== hash) throw fieldError('receiptId', 'This receiptId belongs to another receipt', 'RECEIPT_ID_REUSED');
      return { receipt: answerOf(input.receiptId, stored), replay: true };
    }
    const poRef = input.purchaseOrderId ? purchaseOrders().doc(input.purchaseOrderId) : null;
    let po: StoredPurchaseOrder | undefined;
    if (poRef) {
      const poSnap = await tx.get(poRef);
      countReads(1);
      po = poSnap.data() as StoredPurchaseOrder | undefined;
      if (!po) throw fieldError('purchaseOrderId', 'Unknown purchase order', 'UNKNOWN_PURCHASE_ORDER');
      if (po.status === 'cancelled') throw new HttpError(409, 'purchaseOrderId: this purchase order was cancelled', { code: 'PURCHASE_ORDER_CANCELLED', details: { purchaseOrderId: ['This purchase order was cancelled'] } });
      if (input.supplierId && input.supplierId !== po.supplierId) throw fieldError('supplierId', 'The purchase order is from another supplier');
    }
    if (input.supplierId) await readSupplier(tx, input.supplierId);
    const supplierId = input.supplierId ?? po?.supplierId;
    const found = await booksByIsbn(input.lines.map((l) => l.isbn), tx);
    const requests = await Promise.all(input.lines.map((l) => orderedRequests(tx, l.isbn, l.quantity)));
    // ISBNs no book has: their unlisted books (read even when missing, so a concurrent receipt or create of that ISBN conflicts).
    const unknown = input.lines.map((l) => l.isbn).filter((isbn) => !found.has(isbn));
    const unlisted = await readUnlisted(tx, unknown);
    const costRefs = [...[...found.values()].map((b) => bookCosts().doc(b.id)), ...unknown.map((isbn) => bookCosts().doc(unlistedCostId(isbn)))];
    const costSnaps = costRefs.length ? await tx.getAll(...costRefs) : [];
    countReads(costSnaps.length);
    const costs = new Map(costSnaps.map((s) => [s.id, (s.data() as BookCostDoc | undefined) ?? null]));
    const log = await openAudit(tx);

    // ---- plan: special orders first, then the book's stock ----
    const now = new Date().toISOString();
    const plans = input.lines.map((line, i) => {
      let left = line.quantity;
      const fills: { snap: QueryDocumentSnapshot; copies: number }[] = [];
      for (const request of requests[i]!) {
        if (left === 0) break;
        const doc = request.data() as StoredSpecialOrder;
        const copies = Math.min(left, doc.quantity - (doc.copiesReceived ?? 0));
        if (copies <= 0) continue;
        fills.push({ snap: request, copies });
        left -= copies;
      }
      return { line, fills, toStock: left, book: found.get(line.isbn) };
    });
    const changes: BookChange[] = plans.flatMap((p) => (p.book && p.toStock > 0 ? [{ book: p.book, stockDelta: p.toStock }] : []));
    const staged = await stageBookWrites(tx, changes, { purchasing: `receipts/${input.receiptId}` }, now);
    const results = new Map(staged.results.map((r) => [r.id, r]));

    // ---- writes ----
    afterCommit = staged.write();
    // Copies of an unlisted book: the shelf's (no pre-order or special order waits on the stock of a book nobody can see).
    // Its title: the line's, else the purchase order's (looked up when it was drafted, outside any transaction).
    const unlistedStock = new Map<string, { before: number; after: number }>();
    const poTitles = new Map((po?.lines ?? []).map((l) => [l.isbn, l.title]));
    for (const { line, toStock, book } of plans) {
      if (book || toStock === 0) continue;
      const snap = unlisted.get(line.isbn)!;
      const title = (snap.data() as UnlistedBookDoc | undefined)?.title ?? unlistedTitle(line.isbn, line.title ?? poTitles.get(line.isbn));
      unlistedStock.set(line.isbn, writeUnlistedStock(tx, snap, { isbn: line.isbn, title, stockDelta: toStock }, now));
    }
    const lines: StoredReceipt['lines'] = plans.map(({ line, fills, toStock, book }) => {
      for (const fill of fills) receiveForRequest(tx, fill.snap.id, fill.snap.data() as StoredSpecialOrder, fill.copies, now);
      if (!book) {
        return {
          isbn: line.isbn, received: line.quantity, toSpecialOrders: line.quantity - toStock, toPreorders: 0, toShelf: toStock,
          ...(toStock > 0 ? { unlisted: true as const } : {}), specialOrderIds: fills.map((f) => f.snap.id),
        };
      }
      const result = results.get(book.id);
      const before = (book?.data() as BookDoc | undefined)?.stock ?? 0;
      // Copies the write path gave waiting pre-orders: what reached the stock and is not on it now.
      const toPreorders = result ? Math.max(0, before + toStock - (result.after?.stock ?? 0)) : 0;
      return {
        isbn: line.isbn, ...(book ? { bookId: book.id } : {}), received: line.quantity,
        toSpecialOrders: line.quantity - toStock, toPreorders, toShelf: toStock - toPreorders, specialOrderIds: fills.map((f) => f.snap.id),
      };
    });

    // The purchase order counts every copy that came (more than ordered is allowed, and shown).
    let poChange: { before: string; after: string } | null = null;
    if (po && poRef) {
      const byIsbn = new Map(input.lines.map((l) => [l.isbn, l.quantity]));
      const poLines = po.lines.map((l) => ({ ...l, received: l.received + (byIsbn.get(l.isbn) ?? 0) }));
      const listed = new Set(po.lines.map((l) => l.isbn));
      const unordered = [...(po.unordered ?? [])];
      for (const l of input.lines) {
        if (listed.has(l.isbn)) continue;
        const at = unordered.findIndex((u) => u.isbn === l.isbn);
        if (at >= 0) unordered[at] = { isbn: l.isbn, received: unordered[at]!.received + l.quantity };
        else unordered.push({ isbn: l.isbn, received: l.quantity });
      }
      const status = poLines.every((l) => l.received >= l.quantity) ? 'received' : 'partially_received';
      const moved = status !== po.status;
      tx.set(poRef, {
        ...po, lines: poLines, ...(unordered.length ? { unordered } : {}), status, updatedAt: now,
        history: moved ? [...po.history, { status, at: now, by: actor.username }] : po.history,
      } satisfies StoredPurchaseOrder);
      poChange = { before: po.status, after: status };
    }

    // Costs: the line's own unit cost, else the purchase order's for that ISBN; the copies that
    // reached the stock move the book's moving average (special orders' copies are sold as theirs).
    const poCost = new Map((po?.lines ?? []).map((l) => [l.isbn, l.unitCostCents]));
    const costLines = plans.map(({ line, book }) => ({ isbn: line.isbn, ...(book ? { bookId: book.id } : {}), quantity: line.quantity, unitCostCents: line.unitCost ?? poCost.get(line.isbn) ?? null }));
    plans.forEach(({ line, book, toStock }, i) => {
      const unit = costLines[i]!.unitCostCents;
      if (toStock === 0 || unit === null) return;
      // An unlisted book's cost is kept under its ISBN until a book takes it over (book-writes.ts).
      const costId = book ? book.id : unlistedCostId(line.isbn);
      const onHand = book ? ((book.data() as BookDoc).stock ?? 0) : unlistedStock.get(line.isbn)!.before;
      const avg = movingAverageCents(onHand, costs.get(costId)?.avgCostCents ?? null, toStock, unit);
      tx.set(bookCosts().doc(costId), { avgCostCents: avg, updatedAt: now } satisfies BookCostDoc);
    });
    tx.create(receiptCosts().doc(input.receiptId), { lines: costLines, createdAt: now });
    // The supplier's returns window counts from the last copies of a book received from it.
    if (supplierId) for (const { book } of plans) if (book) tx.set(lastReceipts().doc(lastReceiptId(supplierId, book.id)), { supplierId, bookId: book.id, at: now });

    const doc: StoredReceipt = {
      requestHash: hash, ...(input.purchaseOrderId ? { purchaseOrderId: input.purchaseOrderId } : {}), ...(supplierId ? { supplierId } : {}),
      lines, by: actor.username, createdAt: now,
    };
    tx.create(ref, doc);
    const unlistedIds = [...unlistedStock].map(([isbn, moved]) => [`unlistedBooks/${isbn}`, moved] as const);
    const stock = (pick: (id: string) => number, side: 'before' | 'after') =>
      Object.fromEntries([...staged.results.map((r) => [r.id, pick(r.id)]), ...unlistedIds.map(([id, moved]) => [id, moved[side]])]);
    appendAudit(log, actor, {
      action: 'receipt.create', target: `receipts/${input.receiptId}`,
      changes: {
        lines: { before: null, after: lines.map(({ specialOrderIds: _ids, ...l }) => l) },
        stock: { before: stock((id) => results.get(id)!.before?.stock ?? 0, 'before'), after: stock((id) => results.get(id)!.after?.stock ?? 0, 'after') },
        specialOrders: { before: null, after: lines.flatMap((l) => l.specialOrderIds) },
        ...(poChange ? { purchaseOrder: { before: poChange.before, after: poChange.after } } : {}),
      },
    }, now);
    head = log.head;
    return { receipt: answerOf(input.receiptId, doc), replay: false };
  }, TX_OPTIONS).catch(busy);
  if (head) logChainHead(head);
  await afterCommit();
  return out;
}

