import { PAYMENT_METHOD_LABELS, type ReturnMethod, type Sale, type SalePaymentMethod } from '@bookstore/contract';
import { formatDateTime, money } from '../../../lib/format';

// A sale's receipt, on screen and on paper: the page's Print Receipt prints only this (the dashboard's
// chrome and the counter's controls are `print:hidden`). A gift card sold on the sale prints its code
// on the receipt made when it was sold (the code is the customer's card; the shop keeps only its
// hash), and its last 4 on any later copy.

export interface ReceiptData {
  saleId: string;
  at: string;
  lines: { title: string; isbn: string | null; quantity: number; unitPrice: number; lineTotal: number; giftCard?: { last4: string; code?: string } }[];
  total: number;
  /** Issue 57: a discount code taken off, and a gift card's part (the rest, `due`, by `method`). */
  discount?: { code: string; amount: number };
  giftCard?: { last4: string; amount: number };
  due?: number;
  method: SalePaymentMethod;
  tendered?: number;
  change?: number;
  /** Who sold it, once the server has the sale. */
  servedBy?: string;
  /** Made offline and not on the server yet. */
  waiting?: boolean;
  returns?: { at: string; total: number; method: ReturnMethod }[];
}

/** A sale the shop recorded, as its receipt. */
export function receiptOf(sale: Sale): ReceiptData {
  return {
    saleId: sale._id, at: sale.createdAt, lines: sale.lines, total: sale.total, method: sale.payment.method, tendered: sale.payment.tendered, change: sale.change, servedBy: sale.by.name,
    ...(sale.discount ? { discount: sale.discount } : {}),
    ...(sale.payment.giftCard ? { giftCard: sale.payment.giftCard, due: sale.due } : {}),
  };
}

export function Receipt({ receipt }: { receipt: ReceiptData }) {
  const returned = (receipt.returns ?? []).reduce((sum, r) => sum + Math.round(r.total * 100), 0) / 100;
  return (
    <article aria-label="Receipt" className="receipt mx-auto w-full max-w-sm rounded-md border border-gray-200 bg-white p-4 font-mono text-sm text-gray-900 print:max-w-none print:border-0 print:p-0">
      <header className="mb-3 text-center">
        <p className="text-base font-bold">Book Store</p>
        <p>{formatDateTime(receipt.at)}</p>
        <p className="break-all text-xs text-gray-600">Sale {receipt.saleId}</p>
      </header>
      <ul className="space-y-2 border-y border-dashed border-gray-300 py-2">
        {receipt.lines.map((line, i) => (
          <li key={`${line.isbn ?? ''}-${i}`}>
            <p className="font-sans font-semibold">{line.title}</p>
            {line.giftCard && (line.giftCard.code
              ? <p className="break-all text-base font-bold tracking-wider" data-testid="receipt-gift-card-code">Code {line.giftCard.code}</p>
              : <p className="text-gray-600">Card ending {line.giftCard.last4}</p>)}
            <p className="flex justify-between gap-2">
              <span>{line.quantity} x {money(line.unitPrice)}</span>
              <span className="tabular-nums">{money(line.lineTotal)}</span>
            </p>
          </li>
        ))}
      </ul>
      <dl className="mt-2 space-y-1">
        {receipt.discount && <div className="flex justify-between"><dt>Discount {receipt.discount.code}</dt><dd className="tabular-nums">-{money(receipt.discount.amount)}</dd></div>}
        <div className="flex justify-between text-base font-bold"><dt>Total</dt><dd className="tabular-nums">{money(receipt.total)}</dd></div>
        {receipt.giftCard && <div className="flex justify-between"><dt>Gift card ····{receipt.giftCard.last4}</dt><dd className="tabular-nums">{money(receipt.giftCard.amount)}</dd></div>}
        {!(receipt.giftCard && receipt.method === 'gift_card') && (
          <div className="flex justify-between"><dt>Paid by {receipt.due !== undefined ? PAYMENT_METHOD_LABELS[receipt.method] : ''}</dt><dd className="tabular-nums">{receipt.due !== undefined ? money(receipt.due) : PAYMENT_METHOD_LABELS[receipt.method]}</dd></div>
        )}
        {receipt.tendered !== undefined && <div className="flex justify-between"><dt>Tendered</dt><dd className="tabular-nums">{money(receipt.tendered)}</dd></div>}
        {receipt.change !== undefined && <div className="flex justify-between"><dt>Change</dt><dd className="tabular-nums">{money(receipt.change)}</dd></div>}
        {returned > 0 && <div className="flex justify-between"><dt>Returned</dt><dd className="tabular-nums">-{money(returned)}</dd></div>}
      </dl>
      {receipt.servedBy && <p className="mt-3 text-center">Served by {receipt.servedBy}</p>}
      {receipt.waiting && <p className="mt-3 text-center text-xs">Recorded offline: waiting to sync.{receipt.lines.some((l) => l.giftCard) ? ' The gift card works once the sale reaches the shop.' : ''}</p>}
      <p className="mt-3 text-center">Thank you for shopping with us.</p>
    </article>
  );
}
