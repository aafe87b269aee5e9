import { ISBN_MESSAGE, toIsbn13, type PurchaseOrder } from '@bookstore/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { buttonClass, textLink } from '../../../components/ui/button';
import { networkStatus } from '../../../lib/network-status';
import { useOnline } from '../../../lib/use-online';
import { usePageTitle } from '../../../lib/use-page-title';
import { useMe } from '../api/staff-api';
import { CameraScanButton } from '../camera-scan/camera-scan';
import { purchaseOrdersQuery, useReceive, whereCopiesWent } from './purchasing-api';
import { enqueueReceipt, flushReceipts, queuedReceipts } from './receipt-queue';
import { UnlistedBooks } from './unlisted-books';

// Receiving a delivery (issue 56), on a phone or a tablet: a scanner types the ISBN's digits and
// Enter into 'Scan or type an ISBN'; each scan adds a copy to its line. 'Receive' sends the lines
// under one receiptId made here, queued on the device until the server answered (receipt-queue.ts):
// offline, it is sent when the network returns, and a retry after a lost answer is the same receipt.

const INPUT = 'mt-1 h-11 w-full rounded-md border border-gray-300 bg-gray-50 px-3 focus:bg-white focus:outline-2 focus:outline-accent';
const newId = () => crypto.randomUUID();
/** While receipts wait: how often to try again (a failed send marks the shop offline until a probe answers). */
const RETRY_MS = 15_000;

/** The open purchase orders to receive against (owners and managers see them; a bookseller receives without one). */
function usePurchaseOrders(enabled: boolean): PurchaseOrder[] {
  const sent = useInfiniteQuery({ ...purchaseOrdersQuery('sent'), enabled });
  const partly = useInfiniteQuery({ ...purchaseOrdersQuery('partially_received'), enabled });
  return [...(sent.data?.pages ?? []), ...(partly.data?.pages ?? [])].flatMap((p) => p.purchaseOrders);
}

export function Component() {
  usePageTitle('Receiving');
  const me = useMe();
  const orders = usePurchaseOrders(me.can('purchasing.manage'));
  const receive = useReceive();
  const [lines, setLines] = useState<{ isbn: string; quantity: number }[]>([]);
  const [purchaseOrderId, setPurchaseOrderId] = useState('');
  const [receiptId, setReceiptId] = useState(newId);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const scan = useRef<HTMLInputElement>(null);

  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    addTyped(scan.current?.value ?? '');
  };
  /** An ISBN scanned, typed or read by the camera (issue 57). */
  const addTyped = (typed: string) => {
    const isbn = toIsbn13(typed);
    if (!isbn) {
      setError(typed.trim() ? `${typed.trim()}: ${ISBN_MESSAGE}` : 'Scan or type an ISBN first');
      return;
    }
    setError('');
    setDone('');
    setLines((current) => (current.some((l) => l.isbn === isbn) ? current.map((l) => (l.isbn === isbn ? { ...l, quantity: l.quantity + 1 } : l)) : [...current, { isbn, quantity: 1 }]));
    if (scan.current) scan.current.value = '';
    scan.current?.focus();
  };
  const setCount = (isbn: string, quantity: number) => setLines((current) => current.map((l) => (l.isbn === isbn ? { ...l, quantity } : l)));
  const remove = (isbn: string) => setLines((current) => current.filter((l) => l.isbn !== isbn));

  const [waiting, setWaiting] = useState(() => queuedReceipts().length);
  const { mutateAsync } = receive;
  const flush = useCallback(async () => {
    const { sent, waiting: left } = await flushReceipts(async (draft) => (await mutateAsync(draft)).receipt);
    setWaiting(left);
    for (const s of sent) {
      if ('receipt' in s) setDone(`Received: ${whereCopiesWent(s.receipt)}.`);
      else {
        // Refused (a bad line, a cancelled purchase order): back on the page to correct, under a new id.
        setError(s.refused.message);
        setLines(s.draft.lines);
      }
    }
  }, [mutateAsync]);
  // Queued receipts go once the page is up and whenever the network returns (lib/network-status.ts
  // says when: its probes, not only the browser's word); while some wait, again now and then.
  const online = useOnline();
  useEffect(() => {
    if (!online) return;
    const now = setTimeout(() => void flush(), 0);
    return () => clearTimeout(now);
  }, [online, flush]);
  useEffect(() => {
    if (waiting === 0) return;
    const timer = setInterval(() => {
      if (networkStatus?.online() ?? true) void flush();
    }, RETRY_MS);
    return () => clearInterval(timer);
  }, [waiting, flush]);

  const submit = async () => {
    setError('');
    setDone('');
    enqueueReceipt({ receiptId, ...(purchaseOrderId ? { purchaseOrderId } : {}), lines });
    setLines([]);
    setPurchaseOrderId('');
    setReceiptId(newId()); // the next delivery is another receipt
    // Offline: straight to the queue (the request would only fail).
    if (online) await flush();
    setWaiting(queuedReceipts().length);
    if (queuedReceipts().length > 0) setDone('Saved on this device: it is received when the network returns.');
  };

  return (
    <>
      <section aria-labelledby="receiving-heading" className="rounded-lg bg-white p-4 shadow sm:p-6">
        <h1 id="receiving-heading" className="text-xl font-semibold">Receiving</h1>
        <p className="mt-1 text-sm text-gray-600">Copies go to special orders first, then to waiting pre-orders, then to the shelf. An ISBN the catalogue does not list is counted as an unlisted book.</p>

        <form onSubmit={add} className="mt-4 flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="grow">
            <label htmlFor="scan-isbn" className="font-medium">Scan or type an ISBN</label>
            <input id="scan-isbn" ref={scan} name="isbn" inputMode="numeric" autoComplete="off" autoFocus className={INPUT} />
          </div>
          <button type="submit" className={buttonClass('secondary', 'md')}>Add</button>
          <CameraScanButton onIsbn={addTyped} className={buttonClass('secondary', 'md')} />
        </form>

        {orders.length > 0 && (
          <div className="mt-4">
            <label htmlFor="receive-po" className="font-medium">Purchase order</label>
            <select id="receive-po" value={purchaseOrderId} onChange={(e) => setPurchaseOrderId(e.target.value)} className={INPUT}>
              <option value="">None</option>
              {orders.map((po) => (
                <option key={po._id} value={po._id}>{`${po.supplierName} · ${po._id.slice(0, 8).toUpperCase()} · ${po.lines.length} lines`}</option>
              ))}
            </select>
          </div>
        )}

        {error && <p role="alert" className="mt-3 text-danger">{error}</p>}
        {done && <p role="status" className="mt-3 rounded-md bg-accent-soft px-3 py-2 font-medium text-accent">{done}</p>}
        {waiting > 0 && <p className="mt-3 text-sm text-gray-700">{waiting === 1 ? '1 receipt waits' : `${waiting} receipts wait`} on this device for the network.</p>}

        {lines.length > 0 && (
          <ul aria-label="Copies to receive" className="mt-4 divide-y divide-gray-100 rounded-md border border-gray-200">
            {lines.map((line) => (
              <li key={line.isbn} className="flex flex-wrap items-center gap-3 px-3 py-2">
                <span className="grow font-mono">{line.isbn}</span>
                <label className="flex items-center gap-2">
                  <span className="text-sm text-gray-600">Copies</span>
                  <input
                    type="number" min={1} step={1} value={line.quantity} aria-label={`Copies of ${line.isbn}`}
                    onChange={(e) => setCount(line.isbn, Math.max(1, Math.floor(Number(e.target.value) || 1)))}
                    className="h-10 w-20 rounded-md border border-gray-300 bg-gray-50 px-2 text-right tabular-nums"
                  />
                </label>
                <button type="button" className={textLink} onClick={() => remove(line.isbn)} aria-label={`Remove ${line.isbn}`}>Remove</button>
              </li>
            ))}
          </ul>
        )}

        <div className="mt-4">
          <button type="button" className={buttonClass('primary', 'lg')} disabled={lines.length === 0 || receive.isPending} onClick={() => void submit()}>
            {receive.isPending ? 'Receiving...' : 'Receive'}
          </button>
        </div>
      </section>
      <UnlistedBooks />
    </>
  );
}
