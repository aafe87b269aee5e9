import { Link } from 'react-router-dom';
import { buttonClass, textLink } from '../../../components/ui/button';
import { money } from '../../../lib/format';
import { Receipt, type ReceiptData } from './receipt';
import { ReceiptActions } from './receipt-actions';

/** A sale made: the change due, whether the shop has it yet (a sale kept offline), its receipt and what next. */
export function SaleComplete({ saleId, receipt, change, state, onServer, onNewSale }: {
  saleId: string; receipt: ReceiptData; change?: number; state: 'synced' | 'delivered' | 'refused' | 'waiting'; onServer: boolean; onNewSale: () => void;
}) {
  return (
    <section aria-labelledby="sale-complete" className="space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
      <div className="print:hidden" role="status">
        <h3 id="sale-complete" className="text-2xl font-bold">Sale complete</h3>
        {receipt.giftCard && <p className="mt-1 text-lg">Gift card ····{receipt.giftCard.last4} paid <strong className="tabular-nums">{money(receipt.giftCard.amount)}</strong></p>}
        {receipt.due !== undefined && receipt.method === 'cash' && receipt.tendered === undefined && <p className="mt-1 text-xl">Cash to take: <strong className="tabular-nums">{money(receipt.due)}</strong></p>}
        {change !== undefined && <p className="mt-1 text-xl">Change due: <strong className="tabular-nums">{money(change)}</strong></p>}
        {state === 'delivered' ? (
          <p className="mt-2 rounded-md bg-accent-soft px-3 py-2 text-sm text-secondary">Synced: the shop has this sale.</p>
        ) : state === 'refused' ? (
          <p className="mt-2 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">The shop refused this sale when it was sent: see Sales on This Device below.</p>
        ) : (
          state === 'waiting' && <p className="mt-2 rounded-md bg-primary-soft px-3 py-2 text-sm text-secondary">Waiting to sync: this sale is kept on this device and sent when the connection returns.</p>
        )}
      </div>
      <Receipt receipt={receipt} />
      <div className="flex flex-wrap gap-3 print:hidden">
        <ReceiptActions saleId={saleId} onServer={onServer} />
        <button type="button" onClick={onNewSale} className={buttonClass('primary', 'md')}>New Sale</button>
        {onServer && <Link to={`/dashboard/counter/sales/${saleId}`} className={`${textLink} self-center text-sm`}>Return items from this sale</Link>}
      </div>
    </section>
  );
}
