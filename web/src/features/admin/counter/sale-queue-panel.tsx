import { APPROVAL_REFUSED, MANAGER_APPROVAL_REQUIRED, PAYMENT_METHOD_LABELS, type Approval } from '@bookstore/contract';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { shortId } from '../../../components/orders/order-status';
import { buttonClass, textLink } from '../../../components/ui/button';
import { formatDateTime, money } from '../../../lib/format';
import type { CounterDevice } from './use-counter-device';
import type { QueuedSale } from './counter-store';
import { ManagerApprovalDialog, type ApprovalRequest } from './manager-approval-dialog';

// Sales made at this counter that the server has not confirmed: 'waiting to sync' (sent when the
// connection returns), or refused by the server with what to do (Send Again, or Remove once settled).
// Below them, the sales the queue delivered since the page opened.

const copies = (n: number) => (n === 1 ? '1 book' : `${n} books`);
/** '2 books', '1 gift card', '2 books, 1 gift card' (issue 40: a gift card is a line too). */
function whatSold(lines: QueuedSale['lines']): string {
  const books = lines.reduce((n, l) => n + (l.giftCardCode ? 0 : l.quantity), 0);
  const cards = lines.filter((l) => l.giftCardCode).length;
  const parts = [...(books || !cards ? [copies(books)] : []), ...(cards ? [cards === 1 ? '1 gift card' : `${cards} gift cards`] : [])];
  return parts.join(', ');
}

export function SaleQueue({ device }: { device: CounterDevice }) {
  const [removing, setRemoving] = useState<string | null>(null);
  // A sale kept offline that the shop wants approved (issue 55): a manager approves it here.
  const [approving, setApproving] = useState<{ saleId: string; request: ApprovalRequest } | null>(null);
  const [busy, setBusy] = useState(false);
  if (device.queue.length === 0 && device.synced.length === 0) return null;
  const approve = async (given: Approval) => {
    if (!approving) return;
    setBusy(true);
    try {
      const outcome = await device.retry(approving.saleId, given);
      if (outcome?.kind === 'refused' && outcome.error.body?.code === APPROVAL_REFUSED) setApproving({ ...approving, request: { ...approving.request, problem: outcome.error.message } });
      else setApproving(null);
    } finally {
      setBusy(false);
    }
  };
  const waiting = device.queue.filter((s) => s.state === 'waiting').length;
  return (
    <section aria-labelledby="queue-heading" className="space-y-3 rounded-lg bg-white p-4 shadow sm:p-6 print:hidden">
      <h3 id="queue-heading" className="text-lg font-bold">Sales on This Device</h3>
      <ManagerApprovalDialog request={approving?.request ?? null} busy={busy} onApprove={(given) => void approve(given)} onCancel={() => setApproving(null)} />
      {device.queue.length > 0 && (
        <ul aria-label="Sales not yet synced" className="divide-y divide-gray-100">
          {device.queue.map((sale) => (
            <li key={sale.saleId} className="space-y-2 py-3" data-sale-id={sale.saleId}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm">
                  <span className="font-mono font-semibold">#{shortId(sale.saleId)}</span> · {formatDateTime(sale.queuedAt)} · {whatSold(sale.lines)} · {PAYMENT_METHOD_LABELS[sale.body.payment.method]}
                </span>
                <span className="font-semibold tabular-nums">{money(sale.total)}</span>
              </div>
              {sale.state === 'waiting' ? (
                <span className="inline-block rounded-full bg-primary-soft px-2 py-0.5 text-xs font-semibold text-secondary">waiting to sync</span>
              ) : (
                <div role="alert" className="space-y-2 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
                  <p><strong>Refused by the shop:</strong> {sale.problem?.message}</p>
                  <p className="text-secondary">{sale.problem?.advice}</p>
                  {removing === sale.saleId ? (
                    <div className="flex flex-wrap items-center gap-3 text-secondary">
                      <span>Remove this sale from the device? It will not be recorded.</span>
                      <button type="button" onClick={() => void device.remove(sale.saleId)} className={buttonClass('danger', 'sm')}>Remove Sale</button>
                      <button type="button" onClick={() => setRemoving(null)} className={buttonClass('secondary', 'sm')}>Keep</button>
                    </div>
                  ) : (
                    <div className="flex flex-wrap gap-3">
                      {sale.problem?.code === MANAGER_APPROVAL_REQUIRED ? (
                        <button type="button" disabled={!device.online} onClick={() => setApproving({ saleId: sale.saleId, request: { reason: sale.problem!.message } })} className={buttonClass('secondary', 'sm')}>Manager Approval</button>
                      ) : (
                        <button type="button" disabled={!device.online} onClick={() => void device.retry(sale.saleId)} className={buttonClass('secondary', 'sm')}>Send Again</button>
                      )}
                      <button type="button" onClick={() => setRemoving(sale.saleId)} className={buttonClass('secondary', 'sm')}>Remove</button>
                    </div>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {waiting > 0 && (
        <p className="text-sm text-gray-700">
          {waiting === 1 ? '1 sale is waiting to sync: ' : `${waiting} sales are waiting to sync: `}
          {device.online ? 'sending…' : waiting === 1 ? 'it is sent when the connection returns.' : 'they are sent when the connection returns.'}
        </p>
      )}
      {device.synced.length > 0 && (
        <ul aria-label="Synced sales" className="space-y-1 text-sm">
          {device.synced.map((sale) => (
            <li key={sale._id}>
              <span className="inline-block rounded-full bg-accent-soft px-2 py-0.5 text-xs font-semibold text-secondary">synced</span>{' '}
              <Link to={`/dashboard/counter/sales/${sale._id}`} className={textLink}>#{shortId(sale._id)}</Link> · {money(sale.total)} · {formatDateTime(sale.createdAt)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
