import {
  APPROVAL_REFUSED, fromCents, GIFT_CARD_LINE_TITLE, MANAGER_APPROVAL_REQUIRED, parseMoneyInput, toCents, type Approval, type Sale, type SaleInput, type SalePaymentMethod,
} from '@bookstore/contract';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { postSale } from '../api/sales-api';
import { offlineReceipt } from './counter-lines';
import type { QueuedSale } from './counter-store';
import type { ApprovalRequest } from './manager-approval-dialog';
import { receiptOf, type ReceiptData } from './receipt';
import { bodyToSend, type Outcome } from './sale-queue';
import { codesOfSale, type TillCodes } from './till-codes';
import type { TerminalSaleBody } from './terminal-payment';
import { reservedLeft, takeReservedCodes } from './till';
import type { useCounterDevice } from './use-counter-device';
import type { SaleLines } from './use-sale-lines';

/**
 * Taking the money for the sale rung up: cash (with the amount tendered and its change) through the
 * device's queue, so it works offline; the card reader straight to the shop (issue 57); a sale past
 * a bookseller's allowance stopped for a manager's approval and sent again with it (issue 55).
 */
export function useTakePayment({ sale, device, tillId, by, codes }: { sale: SaleLines; device: ReturnType<typeof useCounterDevice>; tillId: string; by?: string; codes: TillCodes }) {
  const { lines, setLines, setNotice, totalCents } = sale;
  // Issue 57: a gift card or discount code: the shop says what is left to pay, so the till cannot judge the tendered cash.
  const extras = codesOfSale(codes);
  const withCodes = Object.keys(extras).length > 0;
  const [tendered, setTendered] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ receipt: ReceiptData; saleId: string; synced: boolean } | null>(null);
  const [approval, setApproval] = useState<{ request: ApprovalRequest; queued: QueuedSale } | null>(null);
  // Issue 57: a card-terminal sale on its way through the till's reader (never through the offline queue).
  const [terminal, setTerminal] = useState<TerminalSaleBody | null>(null);

  const tenderedDollars = tendered.trim() === '' ? null : parseMoneyInput(tendered);
  const tenderedCents = tenderedDollars === null ? null : toCents(tenderedDollars);
  const tenderedProblem = tendered.trim() !== '' && tenderedCents === null ? 'Type an amount such as 20 or 20.50' : tenderedCents !== null && tenderedCents < totalCents && !withCodes ? 'Less than the total' : null;

  const finish = (queued: QueuedSale, made: Sale | null) => {
    setDone({
      saleId: queued.saleId,
      synced: !!made,
      receipt: made
        ? receiptOf(made)
        : offlineReceipt(queued),
    });
    setLines([]);
    setTendered('');
    setNotice(null);
    codes.clear();
  };

  const complete = async (method: SalePaymentMethod) => {
    if (lines.length === 0 || busy) return;
    const cash = method === 'cash' && tenderedCents !== null ? tenderedCents : undefined;
    if (method === 'cash' && tenderedProblem) {
      setNotice({ tone: 'error', text: `Amount tendered: ${tenderedProblem.toLowerCase()}.` });
      return;
    }
    if (withCodes && !device.online) {
      setNotice({ tone: 'error', text: 'Gift cards and discount codes need the connection to the shop: clear them to sell offline.' });
      return;
    }
    // Offline, each gift card takes a code the shop reserved for this till (issue 55); online the shop makes it.
    const cards = lines.filter((l) => l.kind === 'gift_card').length;
    const reserved = !device.online && cards > 0 ? takeReservedCodes(tillId, cards) : [];
    if (reserved === null) {
      setNotice({ tone: 'error', text: `This till has ${reservedLeft(tillId)} gift card codes kept for selling offline, and this sale needs ${cards}. Sell the gift cards once the shop can be reached.` });
      return;
    }
    const codeOf = new Map(lines.filter((l) => l.kind === 'gift_card').map((l, i) => [l.key, reserved[i]]));
    setBusy(true);
    // The sale as made here and now (issue 54): its time and the prices this till showed are what the
    // shop records, however late the sale reaches it; and who made it (issue 55: `by`), whoever is
    // signed in when it reaches the shop.
    const soldAt = new Date().toISOString();
    const queued: QueuedSale = {
      saleId: crypto.randomUUID(),
      body: {
        saleId: '',
        tillId,
        ...(by ? { by } : {}),
        lines: lines.map((l) => (l.kind === 'gift_card'
          ? { kind: 'gift_card' as const, amount: l.unitPrice.toFixed(2), ...(codeOf.get(l.key) ? { code: codeOf.get(l.key) } : {}) }
          : { bookId: l.bookId, quantity: l.quantity, unitPrice: l.unitPrice.toFixed(2) })),
        payment: paymentBody(method, cash, extras.giftCardCode),
        ...(extras.discountCode ? { discountCode: extras.discountCode } : {}),
        soldAt,
      },
      lines: lines.map((l) => (l.kind === 'gift_card'
        ? { title: GIFT_CARD_LINE_TITLE, isbn: '', quantity: 1, unitPrice: l.unitPrice, ...(codeOf.get(l.key) ? { giftCardCode: codeOf.get(l.key) } : {}) }
        : { title: l.title, isbn: l.isbn, quantity: l.quantity, unitPrice: l.unitPrice })),
      total: fromCents(totalCents),
      ...(cash !== undefined ? { tendered: fromCents(cash), change: fromCents(cash - totalCents) } : {}),
      queuedAt: soldAt,
      state: 'waiting',
    };
    queued.body.saleId = queued.saleId;
    if (method === 'card_terminal') {
      setTerminal({ saleId: queued.saleId, tillId, ...(by ? { by } : {}), lines: queued.body.lines, soldAt, total: queued.total, ...extras });
      setBusy(false);
      return;
    }
    try {
      // With a code, straight to the shop (the customer is here; a code is checked now or not at all).
      const outcome = withCodes ? await sendNow(queued) : await device.sell(queued);
      if (outcome.kind === 'refused') {
        if (outcome.error.body?.code === MANAGER_APPROVAL_REQUIRED) {
          setApproval({ request: { reason: outcome.error.message }, queued });
          return;
        }
        const isbns = (outcome.error.body as { isbns?: string[] } | undefined)?.isbns;
        setNotice({ tone: 'error', text: `${outcome.error.message}${isbns?.length ? `: ISBN ${isbns.join(', ')}` : ''}. Nothing was sold; change the sale and try again.` });
        return;
      }
      if (outcome.kind === 'waiting' && withCodes) return; // not sent: the till said why
      finish(queued, outcome.kind === 'synced' ? outcome.sale : null);
    } finally {
      setBusy(false);
    }
  };

  // A sale with a gift card or discount code: never into the device's queue, where it could be sent
  // after the customer left and be refused then (the card spent meanwhile, the code used up).
  const sendNow = async (queued: QueuedSale): Promise<Outcome> => {
    try {
      return { kind: 'synced', sale: (await postSale(bodyToSend(queued))).sale };
    } catch (error) {
      if (error instanceof ApiError && typeof error.kind === 'number' && error.kind < 500) return { kind: 'refused', error };
      setNotice({ tone: 'error', text: `${error instanceof Error ? error.message : 'The shop could not be reached'}. Nothing was sold; try again.` });
      return { kind: 'waiting', reason: 'offline' };
    }
  };

  // The same sale again, with the manager's approval: straight to the shop, never into the device's
  // queue (the password must not be kept); the customer is at the till, so it is now or not at all.
  const approve = async (given: Approval) => {
    if (!approval || busy) return;
    setBusy(true);
    try {
      const { sale: made } = await postSale({ ...bodyToSend(approval.queued), approval: given });
      setApproval(null);
      finish(approval.queued, made);
    } catch (error) {
      if (error instanceof ApiError && error.body?.code === APPROVAL_REFUSED) {
        setApproval({ ...approval, request: { ...approval.request, problem: error.message } });
      } else {
        setApproval(null);
        setNotice({ tone: 'error', text: `${error instanceof Error ? error.message : 'The shop could not be reached'}. Nothing was sold; try again.` });
      }
    } finally {
      setBusy(false);
    }
  };

  const declineApproval = () => {
    setApproval(null);
    setNotice({ tone: 'error', text: 'Not approved: nothing was sold. Change the sale or ask a manager.' });
  };

  const terminalPaid = (made: Sale) => {
    setTerminal(null);
    setDone({ saleId: made._id, synced: true, receipt: receiptOf(made) });
    setLines([]);
    setNotice(null);
    codes.clear();
  };

  return {
    tendered, setTendered, tenderedCents, tenderedProblem, busy, done, setDone, approval, approve, declineApproval,
    terminal, setTerminal, terminalPaid, complete,
  };
}

/** The sale's payment as the shop takes it (issue 57: a gift card paying first, or alone). */
function paymentBody(method: SalePaymentMethod, cashCents: number | undefined, giftCardCode: string | undefined): SaleInput['payment'] {
  const card = giftCardCode ? { giftCardCode } : {};
  if (method === 'gift_card') return { method, giftCardCode: giftCardCode ?? '' };
  if (method === 'cash') return { method, ...(cashCents !== undefined ? { tendered: fromCents(cashCents).toFixed(2) } : {}), ...card };
  return { method, ...card };
}
