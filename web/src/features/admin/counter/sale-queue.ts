import {
  GIFT_CARD_CODE_UNKNOWN, MANAGER_APPROVAL_REQUIRED, SALE_BY_NOT_STAFF, SOLD_AT_IN_THE_FUTURE, SOLD_AT_TOO_OLD, type Sale, type SaleInput,
} from '@bookstore/contract';
import { ApiError } from '../../../lib/api-client';
import { putQueued, queuedSales, removeQueued, type CounterDb, type QueuedSale } from './counter-store';

// Every sale goes into the device's queue (IndexedDB) before it is sent, under the saleId the
// counter made, and leaves it only when the server has it (201, or 200 for a sale it already had):
// a sale made offline, or whose answer was lost, is sent again until it lands, and the server's
// saleId check makes the repeats one sale (issue 39; docs/decisions/039-counter-sales.md).
// A sale the server refuses stays, marked, with what staff should do.

export type SendSale = (sale: QueuedSale) => Promise<Sale>;

/**
 * What is sent for a queued sale: its body as the till made it, with its time (issue 54). A sale
 * queued before issue 54 has neither `soldAt` nor the lines' `unitPrice` in its body. Its soldAt is
 * its `queuedAt`, the time on its receipt (the till made both at once), so it counts on its own day.
 * Its prices are left out, and the shop records it at the books' prices (what the server did
 * before): the body was perhaps sent already and its answer lost, and the shop knows a sale again by
 * its lines and payment, so lines with prices added would be refused as another sale (422).
 */
export function bodyToSend(sale: QueuedSale): SaleInput {
  return { ...sale.body, soldAt: sale.body.soldAt ?? sale.queuedAt };
}

export type Outcome =
  | { kind: 'synced'; sale: Sale }
  /** Not sent: no network, the server busy or down, or the session to renew; it stays queued. */
  | { kind: 'waiting'; reason: 'offline' | 'sign-in' }
  | { kind: 'refused'; error: ApiError };

/** Whether the failure says "try later" (the sale stays waiting) rather than "no" (refused). */
function later(error: unknown): 'offline' | 'sign-in' | null {
  if (!(error instanceof ApiError)) return 'offline';
  if (error.kind === 'FETCH_ERROR' || error.kind === 'TIMEOUT_ERROR' || error.kind === 'PARSING_ERROR') return 'offline';
  if (error.status === 401) return 'sign-in';
  if (error.status === 403 && error.body?.code === 'TOTP_SETUP_REQUIRED') return 'sign-in';
  if (error.status === 408 || error.status === 429 || (error.status ?? 0) >= 500) return 'offline';
  return null;
}

/** What staff should do about a sale the server refused after it was made at the till. */
export function adviceFor(error: ApiError): string {
  const code = error.body?.code;
  if (code === 'OUT_OF_STOCK') {
    const isbns = (error.body as { isbns?: string[] } | undefined)?.isbns ?? [];
    return `The shop's stock has no copy left of ${isbns.length ? `ISBN ${isbns.join(', ')}` : 'a book on it'}: it was sold online while this counter was offline. `
      + 'The customer has the book and has paid: check the shelf, then correct the stock in Manage Books (or cancel the web order that took the copy) and press Send Again. '
      + 'Remove the sale only if the money was given back.';
  }
  if (code === 'UNKNOWN_BOOKS') return 'A book on this sale was deleted from the catalogue since. Add it again (Add Book) and press Send Again, or write the sale down by hand and Remove it.';
  if (code === 'TENDERED_TOO_LOW') return "The shop's price went up after this device last copied the book list, so the cash taken is less than the sale now costs. Write the sale down by hand for a manager and Remove it.";
  if (code === 'GIFT_CARD_CODE_TAKEN') return "A gift card on this sale has a code the shop already has (this device's copy of a sale sent before?). Nothing was sold: Remove it and sell again.";
  if (code === MANAGER_APPROVAL_REQUIRED) return 'A manager must approve this sale (past the day\'s allowance for a bookseller on this till): press Manager Approval and let them type their password.';
  if (code === GIFT_CARD_CODE_UNKNOWN) return "A gift card on this sale has a code the shop did not reserve for this till (was the till's id changed?). Check the till's id, then Send Again; otherwise write the sale down by hand for a manager and Remove it.";
  if (code === SALE_BY_NOT_STAFF) return 'The person who made this sale is no longer an active staff member who may sell. Write it down by hand for a manager and Remove it.';
  if (code === 'SALE_ID_REUSED') return 'Another sale with the same number is already recorded: Remove this copy.';
  if (code === SOLD_AT_TOO_OLD) return 'This sale was made more than 7 days ago: the shop no longer takes it from the till. Write it down by hand for a manager and Remove it.';
  if (code === SOLD_AT_IN_THE_FUTURE) return "This device's clock is ahead of the shop's: set the device's date and time right, then make the sale again (Remove this one).";
  if (error.status === 403) return 'Your role may not sell at the counter: ask a manager to sign in and press Send Again.';
  return 'Press Send Again, or write the sale down by hand for a manager and Remove it.';
}

/** Sends one queued sale; updates the queue with what happened. */
export async function sendQueued(db: CounterDb, sale: QueuedSale, send: SendSale): Promise<Outcome> {
  try {
    const stored = await send(sale);
    await removeQueued(db, sale.saleId);
    return { kind: 'synced', sale: stored };
  } catch (error) {
    const wait = later(error);
    if (wait) return { kind: 'waiting', reason: wait };
    const refused = error as ApiError;
    const code = typeof refused.body?.code === 'string' ? refused.body.code : undefined;
    await putQueued(db, { ...sale, state: 'refused', problem: { message: refused.message, advice: adviceFor(refused), ...(code ? { code } : {}) } });
    return { kind: 'refused', error: refused };
  }
}

/**
 * Sends every waiting sale, oldest first, until one cannot be sent for now (no network: the rest
 * would fail too). Refused sales are left for staff. One flush at a time across this browser's tabs
 * (Web Locks, where the browser has them; the server's saleId check makes an overlap harmless).
 */
export async function flushQueue(db: CounterDb, send: SendSale, onSynced: (sale: Sale) => void = () => {}): Promise<{ sent: number; waiting: number }> {
  const run = async () => {
    let sent = 0;
    for (const sale of await queuedSales(db)) {
      if (sale.state !== 'waiting') continue;
      const outcome = await sendQueued(db, sale, send);
      if (outcome.kind === 'waiting') break;
      if (outcome.kind === 'synced') {
        sent += 1;
        onSynced(outcome.sale);
      }
    }
    return { sent, waiting: (await queuedSales(db)).filter((s) => s.state === 'waiting').length };
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('bookstore-counter-queue', run) : run();
}
