import type { Sale } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass, fieldClass } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { money } from '../../../lib/format';
import { cancelTerminalSale, readersQuery } from '../api/readers-api';
import { postSale, saleQuery } from '../api/sales-api';

// 'Card on Terminal' (issue 57): the sale goes to the shop with the till's reader, which then waits
// for the card; the page follows the sale (GET every second) until Stripe has said how it ended:
// complete (the counter shows the receipt) or why not (declined, cancelled: its copies are back, the
// books stay on the till to pay another way). Never from the offline queue: the customer is here now.

/** The sale as the counter made it, without its reader yet. */
export interface TerminalSaleBody {
  saleId: string;
  /** This device's till (issue 55): only its readers are offered, and the shop checks the reader is the till's. */
  tillId: string;
  /** Who made the sale (issue 55). */
  by?: string;
  lines: unknown[];
  soldAt: string;
  total: number;
  /** Issue 57: a discount code and a gift card paying first: the reader takes what is left. */
  discountCode?: string;
  giftCardCode?: string;
}

const READER_KEY = 'counter.readerId';
const POLL_MS = 1000;

export function TerminalPayment({ sale, onComplete, onBack }: { sale: TerminalSaleBody; onComplete: (sale: Sale) => void; onBack: () => void }) {
  const readers = useQuery(readersQuery());
  const [readerId, setReaderId] = useState(() => localStorage.getItem(READER_KEY) ?? '');
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = (readers.data ?? []).filter((r) => r.tillId === sale.tillId);
  const chosen = list.find((r) => r._id === readerId) ?? (list.length === 1 ? list[0] : undefined);

  // Following the sale while the reader waits for the card.
  const followed = useQuery({ ...saleQuery(sale.saleId), enabled: sent, refetchInterval: (q) => (q.state.data?.status === 'awaiting_payment' ? POLL_MS : false) });
  const status = followed.data?.status;
  useEffect(() => {
    if (status === 'complete' && followed.data) onComplete(followed.data);
  }, [status, followed.data, onComplete]);

  const send = async () => {
    if (!chosen || sending) return;
    localStorage.setItem(READER_KEY, chosen._id);
    setSending(true);
    setError(null);
    try {
      await postSale({
        saleId: sale.saleId, tillId: sale.tillId, ...(sale.by ? { by: sale.by } : {}), lines: sale.lines, soldAt: sale.soldAt,
        ...(sale.discountCode ? { discountCode: sale.discountCode } : {}),
        payment: { method: 'card_terminal', readerId: chosen._id, ...(sale.giftCardCode ? { giftCardCode: sale.giftCardCode } : {}) },
      });
      setSent(true);
    } catch (e) {
      // Refused (4xx): nothing was sold, and the till says why. No answer (a timeout, a 5xx): the sale
      // may have reached the reader all the same, so the till follows it rather than guess.
      if (e instanceof ApiError && typeof e.kind === 'number' && e.kind < 500) setError(e.message);
      else setSent(true);
    } finally {
      setSending(false);
    }
  };

  const cancel = async () => {
    setSending(true);
    try {
      await cancelTerminalSale(sale.saleId);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The shop could not be reached to cancel: try again.');
    } finally {
      setSending(false);
      await followed.refetch();
    }
  };

  const lost = sent && followed.error instanceof ApiError && followed.error.kind === 404; // it never reached the shop
  const ended = status === 'failed' || status === 'cancelled' || lost;
  return (
    <section aria-labelledby="terminal-title" className="space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
      <h3 id="terminal-title" className="text-xl font-bold">Card on Terminal <span className="font-normal tabular-nums">{money(followed.data?.due ?? followed.data?.total ?? sale.total)}</span></h3>
      {!sent ? (
        <>
          {readers.isPending ? (
            <p className="text-sm text-gray-600">Loading the card readers…</p>
          ) : list.length === 0 ? (
            <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">No card reader is registered for this till ({sale.tillId}): a manager adds the till&apos;s reader first on <Link to="/dashboard/counter/readers" className="font-semibold underline">Card Readers</Link>. Take cash instead.</p>
          ) : (
            <div>
              <label htmlFor="terminal-reader" className="mb-1 block text-sm font-semibold text-gray-700">Card reader</label>
              <select id="terminal-reader" value={chosen?._id ?? ''} onChange={(e) => setReaderId(e.target.value)} className={fieldClass}>
                {!chosen && <option value="">Choose the till&apos;s reader</option>}
                {list.map((r) => <option key={r._id} value={r._id}>{r.label} (till {r.tillId})</option>)}
              </select>
            </div>
          )}
          <div className="flex flex-wrap gap-3">
            <button type="button" disabled={!chosen || sending} onClick={() => void send()} className={buttonClass('primary', 'lg')}>Send to Reader</button>
            <button type="button" disabled={sending} onClick={onBack} className={buttonClass('secondary', 'lg')}>Back to Sale</button>
          </div>
        </>
      ) : ended ? (
        <div role="alert" className="space-y-3">
          <p className="rounded-md bg-danger-soft px-3 py-2 text-danger">
            {lost ? 'The sale did not reach the shop' : status === 'cancelled' ? 'Payment cancelled' : `Not paid: ${followed.data?.terminal?.failure ?? 'the reader could not take the card'}`}. The books are back in stock; nothing was sold.
          </p>
          <button type="button" onClick={onBack} className={buttonClass('primary', 'lg')}>Back to Sale</button>
        </div>
      ) : (
        <div role="status" className="space-y-3">
          <p className="text-2xl font-bold">Present card on the reader</p>
          <p className="text-sm text-gray-600">{chosen?.label}: waiting for the customer&apos;s card…</p>
          <button type="button" disabled={sending} onClick={() => void cancel()} className={buttonClass('secondary', 'lg')}>Cancel</button>
        </div>
      )}
      {error && <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">{error}</p>}
    </section>
  );
}
