import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button';
import { usePageTitle } from '../../../lib/use-page-title';
import { useMe } from '../api/staff-api';
import { DeviceStatus, TillSetting } from './device-status';
import { ManagerApprovalDialog } from './manager-approval-dialog';
import { PaymentPanel } from './payment-panel';
import { receiptOf, type ReceiptData } from './receipt';
import { SaleComplete } from './sale-complete';
import { SaleLinesList } from './sale-lines-list';
import { SaleQueue } from './sale-queue-panel';
import { ScanPanel } from './scan-panel';
import { TerminalPayment } from './terminal-payment';
import { useTillCodes } from './till-codes';
import { readTillId } from './till';
import { useCounterDevice } from './use-counter-device';
import { useSaleLines } from './use-sale-lines';
import { useTakePayment } from './use-take-payment';

// The Counter (issue 39): scan or type an ISBN, Enter adds the book (again: one more), take cash or
// the card terminal, print the receipt. Works offline: books are looked up on the device's copy of
// the book list and sales wait in the device's queue until the shop can be reached. A gift card is a
// line too (issue 40): its amount; its code is the shop's (issue 55), made by the sale online, or one
// the shop reserved for this till (till.ts) when the sale is made offline, printed on its receipt.
// The device is a till with an id (issue 55); a sale past a bookseller's allowance asks for a
// manager's approval on the spot (manager-approval-dialog.tsx) and is sent again with it.
// The page puts together its parts: the scan (scan-panel), the lines (use-sale-lines,
// sale-lines-list), the payment (use-take-payment, payment-panel, terminal-payment) and the result.

export function Component() {
  usePageTitle('Counter');
  const me = useMe();
  const device = useCounterDevice();
  const scanner = useRef<HTMLInputElement>(null);
  const [tillId, setTillId] = useState(readTillId);
  const sale = useSaleLines();
  const codes = useTillCodes();
  const pay = useTakePayment({ sale, device, tillId, by: me.data?.username, codes });
  const { done } = pay;

  if (me.data && !me.can('sales.counter')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot use the counter.</p>;

  // A sale made offline: the queue says what became of it since (synced, or refused by the shop).
  const delivered = done && !done.synced ? device.synced.find((s) => s._id === done.saleId) : undefined;
  const refusedNow = done && !done.synced && device.queue.some((s) => s.saleId === done.saleId && s.state === 'refused');
  const shown: ReceiptData | null = delivered
    ? receiptOf(delivered)
    : done?.receipt ?? null;

  const newSale = () => {
    pay.setDone(null);
    requestAnimationFrame(() => scanner.current?.focus());
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <h2 className="text-2xl font-bold">Counter</h2>
        <div className="flex flex-wrap gap-3">
          <Link to="/dashboard/counter/shifts" className={buttonClass('secondary', 'md')}>Shifts</Link>
          <Link to="/dashboard/counter/day" className={buttonClass('secondary', 'md')}>Day&apos;s End</Link>
          <Link to="/dashboard/counter/readers" className={buttonClass('secondary', 'md')}>Card Readers</Link>
        </div>
      </div>
      <DeviceStatus device={device} />
      <TillSetting tillId={tillId} onChange={(id) => {
        setTillId(id);
        void device.topUpCodes(); // the codes kept were another till's
      }} />
      <ManagerApprovalDialog request={pay.approval?.request ?? null} busy={pay.busy} onApprove={(given) => void pay.approve(given)} onCancel={pay.declineApproval} />

      {done ? (
        <SaleComplete
          saleId={done.saleId} receipt={shown!} change={done.receipt.change} onServer={!!(done.synced || delivered)} onNewSale={newSale}
          state={delivered ? 'delivered' : refusedNow ? 'refused' : done.synced ? 'synced' : 'waiting'}
        />
      ) : pay.terminal ? (
        <TerminalPayment sale={pay.terminal} onComplete={pay.terminalPaid} onBack={() => pay.setTerminal(null)} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] print:hidden">
          <section aria-label="Sale" className="space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
            <ScanPanel scanner={scanner} notice={sale.notice} onCode={sale.addCode} canLookUp={me.can('books.edit')} canAdd={me.can('books.create')} />
            <SaleLinesList lines={sale.lines} onQuantity={sale.setQuantity} onGiftCard={sale.addGiftCard} />
          </section>
          <PaymentPanel
            totalCents={sale.totalCents} tendered={pay.tendered} onTendered={pay.setTendered} tenderedCents={pay.tenderedCents} tenderedProblem={pay.tenderedProblem}
            empty={sale.lines.length === 0} busy={pay.busy} online={device.online} onPay={(method) => void pay.complete(method)} codes={codes}
          />
        </div>
      )}

      <SaleQueue device={device} />
    </div>
  );
}
