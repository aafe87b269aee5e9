import {
  APPROVAL_REFUSED, fromCents, GIFT_CARD_LINE_TITLE, looksLikeIsbn, MANAGER_APPROVAL_REQUIRED, MAX_GIFT_CARD_CENTS, parseMoneyInput, toCents, toIsbn13,
  type Approval, type Sale, type SalePaymentMethod,
} from '@bookstore/contract';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass, fieldClass, textLink } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime, money } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { getCounterBook, postSale } from '../api/sales-api';
import { useMe } from '../api/staff-api';
import { CameraScanButton } from '../camera-scan/camera-scan';
import { bookByIsbn, counterDb, keepBook, type QueuedSale } from './counter-store';
import { IsbnLookupNote } from './isbn-lookup-note';
import { ManagerApprovalDialog, type ApprovalRequest } from './manager-approval-dialog';
import { Receipt, type ReceiptData } from './receipt';
import { bodyToSend } from './sale-queue';
import { ReceiptActions } from './receipt-actions';
import { SaleQueue } from './sale-queue-panel';
import { readTillId, reservedLeft, takeReservedCodes, writeTillId } from './till';
import { TerminalPayment, type TerminalSaleBody } from './terminal-payment';
import { useCounterDevice } from './use-counter-device';

// The Counter (issue 39): scan or type an ISBN, Enter adds the book (again: one more), take cash or
// the card terminal, print the receipt. Works offline: books are looked up on the device's copy of
// the book list and sales wait in the device's queue until the shop can be reached. A gift card is a
// line too (issue 40): its amount; its code is the shop's (issue 55), made by the sale online, or one
// the shop reserved for this till (till.ts) when the sale is made offline, printed on its receipt.
// The device is a till with an id (issue 55); a sale past a bookseller's allowance asks for a
// manager's approval on the spot (manager-approval-dialog.tsx) and is sent again with it.

interface BookLine {
  kind: 'book';
  bookId: string;
  isbn: string;
  title: string;
  author?: string;
  unitPrice: number;
  quantity: number;
}

interface CardLine {
  kind: 'gift_card';
  /** The line's key on this page (the code is the shop's). */
  key: string;
  unitPrice: number;
  quantity: 1;
}

type Line = BookLine | CardLine;
const lineId = (line: Line) => (line.kind === 'gift_card' ? line.key : line.bookId);

type Notice = { tone: 'error' | 'info'; text: string; unknownIsbn?: string } | null;

const centsOf = (dollars: number) => Math.round(dollars * 100);

function offlineReceipt(sale: QueuedSale): ReceiptData {
  return {
    saleId: sale.saleId,
    at: sale.queuedAt,
    lines: sale.lines.map(({ giftCardCode, ...l }) => ({
      ...l, lineTotal: fromCents(l.quantity * centsOf(l.unitPrice)), ...(giftCardCode ? { giftCard: { code: giftCardCode, last4: giftCardCode.slice(-4) } } : {}),
    })),
    total: sale.total,
    method: sale.body.payment.method,
    ...(sale.tendered !== undefined ? { tendered: sale.tendered } : {}),
    ...(sale.change !== undefined ? { change: sale.change } : {}),
    waiting: true,
  };
}

export function Component() {
  usePageTitle('Counter');
  const me = useMe();
  const device = useCounterDevice();
  const scanner = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const [tendered, setTendered] = useState('');
  const [cardAmount, setCardAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ receipt: ReceiptData; saleId: string; synced: boolean } | null>(null);
  const [tillId, setTillId] = useState(readTillId);
  const [approval, setApproval] = useState<{ request: ApprovalRequest; queued: QueuedSale } | null>(null);
  // Issue 57: a card-terminal sale on its way through the till's reader (never through the offline queue).
  const [terminal, setTerminal] = useState<TerminalSaleBody | null>(null);

  if (me.data && !me.can('sales.counter')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot use the counter.</p>;

  const totalCents = lines.reduce((sum, l) => sum + l.quantity * centsOf(l.unitPrice), 0);
  const tenderedDollars = tendered.trim() === '' ? null : parseMoneyInput(tendered);
  const tenderedCents = tenderedDollars === null ? null : toCents(tenderedDollars);
  const tenderedProblem = tendered.trim() !== '' && tenderedCents === null ? 'Type an amount such as 20 or 20.50' : tenderedCents !== null && tenderedCents < totalCents ? 'Less than the total' : null;

  const addBook = (book: Omit<BookLine, 'quantity' | 'kind'>) =>
    setLines((current) => {
      const at = current.findIndex((l) => l.kind === 'book' && l.bookId === book.bookId);
      if (at < 0) return [...current, { ...book, kind: 'book', quantity: 1 }];
      return current.map((l, i) => (i === at && l.kind === 'book' ? { ...l, quantity: Math.min(99, l.quantity + 1) } : l));
    });

  const addGiftCard = (event: FormEvent) => {
    event.preventDefault();
    const dollars = parseMoneyInput(cardAmount.trim());
    const cents = dollars === null ? null : toCents(dollars);
    if (cents === null || cents < 1 || cents > MAX_GIFT_CARD_CENTS) {
      setNotice({ tone: 'error', text: `A gift card's amount is from $0.01 to ${money(MAX_GIFT_CARD_CENTS / 100)}, such as 25 or 25.50.` });
      return;
    }
    setLines((current) => [...current, { kind: 'gift_card', key: crypto.randomUUID(), unitPrice: fromCents(cents), quantity: 1 }]);
    setCardAmount('');
    setNotice(null);
  };

  const scan = async (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    setCode(''); // ready for the next scan at once
    await addCode(typed);
  };

  /** An ISBN scanned, typed or read by the camera (issue 57). */
  const addCode = async (typed: string) => {
    if (!typed) return;
    const isbn = toIsbn13(typed);
    if (!isbn) {
      setNotice({ tone: 'error', text: looksLikeIsbn(typed) ? `${typed} has a wrong check digit: scan it again or type it.` : `${typed} is not an ISBN: scan the barcode or type its 10 or 13 digits.` });
      return;
    }
    const db = await counterDb();
    const onDevice = await bookByIsbn(db, isbn);
    if (onDevice) {
      addBook({ bookId: onDevice._id, isbn, title: onDevice.title, author: onDevice.author, unitPrice: onDevice.price });
      setNotice(null);
      return;
    }
    // Not on the device's list (added since the last copy, or never copied): ask the shop.
    try {
      const { book } = await getCounterBook(isbn);
      await keepBook(db, book);
      addBook({ bookId: book._id, isbn, title: book.title, author: book.author, unitPrice: book.price });
      setNotice(null);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setNotice({ tone: 'error', text: `No book in the catalogue has ISBN ${isbn}.`, unknownIsbn: isbn });
      else setNotice({ tone: 'error', text: `ISBN ${isbn} is not on this device's book list, and the shop cannot be reached to look it up. Sell it once the connection is back.` });
    }
  };

  const setQuantity = (id: string, quantity: number) =>
    setLines((current) => current.flatMap((l) => (lineId(l) !== id ? [l] : quantity <= 0 ? [] : l.kind === 'gift_card' ? [l] : [{ ...l, quantity: Math.min(99, quantity) }])));

  const complete = async (method: SalePaymentMethod) => {
    if (lines.length === 0 || busy) return;
    const cash = method === 'cash' && tenderedCents !== null ? tenderedCents : undefined;
    if (method === 'cash' && tenderedProblem) {
      setNotice({ tone: 'error', text: `Amount tendered: ${tenderedProblem.toLowerCase()}.` });
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
        ...(me.data ? { by: me.data.username } : {}),
        lines: lines.map((l) => (l.kind === 'gift_card'
          ? { kind: 'gift_card' as const, amount: l.unitPrice.toFixed(2), ...(codeOf.get(l.key) ? { code: codeOf.get(l.key) } : {}) }
          : { bookId: l.bookId, quantity: l.quantity, unitPrice: l.unitPrice.toFixed(2) })),
        payment: method === 'cash' ? { method, ...(cash !== undefined ? { tendered: fromCents(cash).toFixed(2) } : {}) } : { method },
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
      setTerminal({ saleId: queued.saleId, tillId, ...(me.data ? { by: me.data.username } : {}), lines: queued.body.lines, soldAt, total: queued.total });
      setBusy(false);
      return;
    }
    try {
      const outcome = await device.sell(queued);
      if (outcome.kind === 'refused') {
        if (outcome.error.body?.code === MANAGER_APPROVAL_REQUIRED) {
          setApproval({ request: { reason: outcome.error.message }, queued });
          return;
        }
        const isbns = (outcome.error.body as { isbns?: string[] } | undefined)?.isbns;
        setNotice({ tone: 'error', text: `${outcome.error.message}${isbns?.length ? `: ISBN ${isbns.join(', ')}` : ''}. Nothing was sold; change the sale and try again.` });
        return;
      }
      finish(queued, outcome.kind === 'synced' ? outcome.sale : null);
    } finally {
      setBusy(false);
    }
  };

  const finish = (queued: QueuedSale, sale: Sale | null) => {
    setDone({
      saleId: queued.saleId,
      synced: !!sale,
      receipt: sale
        ? { saleId: sale._id, at: sale.createdAt, lines: sale.lines, total: sale.total, method: sale.payment.method, tendered: sale.payment.tendered, change: sale.change, servedBy: sale.by.name }
        : offlineReceipt(queued),
    });
    setLines([]);
    setTendered('');
    setNotice(null);
  };

  // The same sale again, with the manager's approval: straight to the shop, never into the device's
  // queue (the password must not be kept); the customer is at the till, so it is now or not at all.
  const approve = async (given: Approval) => {
    if (!approval || busy) return;
    setBusy(true);
    try {
      const { sale } = await postSale({ ...bodyToSend(approval.queued), approval: given });
      setApproval(null);
      finish(approval.queued, sale);
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

  // A sale made offline: the queue says what became of it since (synced, or refused by the shop).
  const delivered = done && !done.synced ? device.synced.find((sale) => sale._id === done.saleId) : undefined;
  const refusedNow = done && !done.synced && device.queue.some((sale) => sale.saleId === done.saleId && sale.state === 'refused');
  const shown: ReceiptData | null = delivered
    ? { saleId: delivered._id, at: delivered.createdAt, lines: delivered.lines, total: delivered.total, method: delivered.payment.method, tendered: delivered.payment.tendered, change: delivered.change, servedBy: delivered.by.name }
    : done?.receipt ?? null;

  const terminalPaid = (sale: Sale) => {
    setTerminal(null);
    setDone({ saleId: sale._id, synced: true, receipt: { saleId: sale._id, at: sale.createdAt, lines: sale.lines, total: sale.total, method: sale.payment.method, servedBy: sale.by.name } });
    setLines([]);
    setNotice(null);
  };

  const newSale = () => {
    setDone(null);
    requestAnimationFrame(() => scanner.current?.focus());
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <h2 className="text-2xl font-bold">Counter</h2>
        <div className="flex flex-wrap gap-3">
          <Link to="/dashboard/counter/shifts" className={buttonClass('secondary', 'md')}>Shifts</Link>
          <Link to="/dashboard/counter/day" className={buttonClass('secondary', 'md')}>Day&apos;s End</Link>
        </div>
      </div>
      <DeviceStatus device={device} />
      <TillSetting tillId={tillId} onChange={(id) => {
        setTillId(id);
        void device.topUpCodes(); // the codes kept were another till's
      }} />
      <ManagerApprovalDialog
        request={approval?.request ?? null}
        busy={busy}
        onApprove={(given) => void approve(given)}
        onCancel={() => {
          setApproval(null);
          setNotice({ tone: 'error', text: 'Not approved: nothing was sold. Change the sale or ask a manager.' });
        }}
      />

      {done ? (
        <section aria-labelledby="sale-complete" className="space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
          <div className="print:hidden" role="status">
            <h3 id="sale-complete" className="text-2xl font-bold">Sale complete</h3>
            {done.receipt.change !== undefined && <p className="mt-1 text-xl">Change due: <strong className="tabular-nums">{money(done.receipt.change)}</strong></p>}
            {delivered ? (
              <p className="mt-2 rounded-md bg-accent-soft px-3 py-2 text-sm text-secondary">Synced: the shop has this sale.</p>
            ) : refusedNow ? (
              <p className="mt-2 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">The shop refused this sale when it was sent: see Sales on This Device below.</p>
            ) : (
              !done.synced && <p className="mt-2 rounded-md bg-primary-soft px-3 py-2 text-sm text-secondary">Waiting to sync: this sale is kept on this device and sent when the connection returns.</p>
            )}
          </div>
          <Receipt receipt={shown!} />
          <div className="flex flex-wrap gap-3 print:hidden">
            <ReceiptActions saleId={done.saleId} onServer={!!(done.synced || delivered)} />
            <button type="button" onClick={newSale} className={buttonClass('primary', 'md')}>New Sale</button>
            {(done.synced || delivered) && <Link to={`/dashboard/counter/sales/${done.saleId}`} className={`${textLink} self-center text-sm`}>Return items from this sale</Link>}
          </div>
        </section>
      ) : terminal ? (
        <TerminalPayment sale={terminal} onComplete={terminalPaid} onBack={() => setTerminal(null)} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] print:hidden">
          <section aria-label="Sale" className="space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
            <form onSubmit={(e) => void scan(e)} className="flex items-end gap-2">
              <div className="min-w-0 flex-1">
                <label htmlFor="scan" className="mb-1 block text-sm font-semibold text-gray-700">Scan or type an ISBN</label>
                <input
                  id="scan" ref={scanner} value={code} onChange={(e) => setCode(e.target.value)} autoFocus autoComplete="off" inputMode="numeric" enterKeyHint="enter"
                  maxLength={20} className={`${fieldClass} text-lg tracking-wide`} aria-describedby={notice ? 'scan-notice' : undefined}
                />
              </div>
              <button type="submit" className={buttonClass('secondary', 'md', 'h-11')}>Add</button>
              <CameraScanButton onIsbn={(isbn) => void addCode(isbn)} />
            </form>
            {notice && (
              <div id="scan-notice" role="alert" className={`rounded-md px-3 py-2 text-sm ${notice.tone === 'error' ? 'bg-danger-soft text-danger' : 'bg-accent-soft text-secondary'}`}>
                <p>{notice.text}</p>
                {notice.unknownIsbn && <IsbnLookupNote isbn={notice.unknownIsbn} canLookUp={me.can('books.edit')} canAdd={me.can('books.create')} />}
              </div>
            )}
            {lines.length === 0 ? (
              <p className="text-sm text-gray-600">No books yet: scan a barcode or type an ISBN and press Enter.</p>
            ) : (
              <ul aria-label="Books in this sale" className="divide-y divide-gray-100">
                {lines.map((line) => line.kind === 'gift_card' ? (
                  <li key={line.key} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                    <div className="min-w-0 flex-1 basis-48">
                      <p className="font-semibold">{GIFT_CARD_LINE_TITLE}</p>
                      <p className="text-sm text-gray-600">The shop makes its code; it prints on the receipt</p>
                    </div>
                    <p className="w-28 text-right font-semibold tabular-nums">{money(line.unitPrice)}</p>
                    <button type="button" onClick={() => setQuantity(line.key, 0)} className={`${textLink} text-sm`} aria-label={`Remove gift card of ${money(line.unitPrice)}`}>Remove</button>
                  </li>
                ) : (
                  <li key={line.bookId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
                    <div className="min-w-0 flex-1 basis-48">
                      <p className="font-semibold">{line.title}</p>
                      <p className="text-sm text-gray-600">{line.author ? `${line.author} · ` : ''}ISBN {line.isbn}</p>
                    </div>
                    <div className="flex items-center gap-2" role="group" aria-label={`Quantity of ${line.title}`}>
                      <button type="button" aria-label={`One less of ${line.title}`} onClick={() => setQuantity(line.bookId, line.quantity - 1)} className={buttonClass('secondary', 'sm', 'size-9 px-0')}>−</button>
                      <span className="w-8 text-center font-semibold tabular-nums" data-testid="quantity">{line.quantity}</span>
                      <button type="button" aria-label={`One more of ${line.title}`} onClick={() => setQuantity(line.bookId, line.quantity + 1)} className={buttonClass('secondary', 'sm', 'size-9 px-0')}>+</button>
                    </div>
                    <div className="w-28 text-right">
                      <p className="font-semibold tabular-nums">{money(fromCents(line.quantity * centsOf(line.unitPrice)))}</p>
                      <p className="text-xs text-gray-600 tabular-nums">{money(line.unitPrice)} each</p>
                    </div>
                    <button type="button" onClick={() => setQuantity(line.bookId, 0)} className={`${textLink} text-sm`} aria-label={`Remove ${line.title}`}>Remove</button>
                  </li>
                ))}
              </ul>
            )}
            <form onSubmit={addGiftCard} className="flex items-end gap-2 border-t border-gray-100 pt-4">
              <div className="min-w-0 flex-1">
                <label htmlFor="gift-card-amount" className="mb-1 block text-sm font-semibold text-gray-700">Gift card <span className="font-normal text-gray-600">(amount)</span></label>
                <input id="gift-card-amount" value={cardAmount} onChange={(e) => setCardAmount(e.target.value)} inputMode="decimal" autoComplete="off" placeholder="25.00" className={fieldClass} />
              </div>
              <button type="submit" className={buttonClass('secondary', 'md', 'h-11')}>Add Gift Card</button>
            </form>
          </section>

          <section aria-label="Payment" className="space-y-4 self-start rounded-lg bg-white p-4 shadow sm:p-6">
            <p className="flex items-baseline justify-between">
              <span className="text-lg font-semibold">Total</span>
              <span className="text-3xl font-bold tabular-nums" data-testid="sale-total">{money(fromCents(totalCents))}</span>
            </p>
            <div>
              <label htmlFor="tendered" className="mb-1 block text-sm font-semibold text-gray-700">Amount tendered <span className="font-normal text-gray-600">(optional, cash)</span></label>
              <input id="tendered" value={tendered} onChange={(e) => setTendered(e.target.value)} inputMode="decimal" autoComplete="off" className={fieldClass} aria-describedby="change" />
              <p id="change" className="mt-1 min-h-5 text-sm" aria-live="polite">
                {tenderedProblem ? <span className="text-danger">{tenderedProblem}</span> : tenderedCents !== null && lines.length > 0 ? <>Change: <strong className="tabular-nums">{money(fromCents(tenderedCents - totalCents))}</strong></> : null}
              </p>
            </div>
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
              <button type="button" disabled={lines.length === 0 || busy} onClick={() => void complete('cash')} className={buttonClass('primary', 'lg')}>Take Cash</button>
              <button type="button" disabled={lines.length === 0 || busy || !device.online} onClick={() => void complete('card_terminal')} className={buttonClass('secondary', 'lg')} aria-describedby="terminal-note">Card on Terminal</button>
            </div>
            <p id="terminal-note" className="text-xs text-gray-600">
              {device.online ? "Card on Terminal: the till's card reader takes the payment; the sale completes when the card is accepted." : 'Offline: Card on Terminal needs the connection to the shop and its reader. Cash still works.'}
            </p>
          </section>
        </div>
      )}

      <SaleQueue device={device} />
    </div>
  );
}

function DeviceStatus({ device }: { device: ReturnType<typeof useCounterDevice> }) {
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm print:hidden">
      {device.online ? (
        <span className="rounded-full bg-accent-soft px-3 py-1 font-semibold text-secondary">Online</span>
      ) : (
        <span role="status" className="rounded-full bg-primary-soft px-3 py-1 font-semibold text-secondary">Offline: sales are kept on this device and sent when the connection returns</span>
      )}
      <span className="text-gray-700" data-testid="device-books">
        {device.books} {device.books === 1 ? 'book' : 'books'} on this device{device.syncedAt ? `, list updated ${formatDateTime(new Date(device.syncedAt).toISOString())}` : ''}
        {device.syncing ? ' (updating…)' : ''}
      </span>
      <span className="text-gray-700" data-testid="device-codes">
        {device.codes} gift card {device.codes === 1 ? 'code' : 'codes'} kept for selling offline
      </span>
    </div>
  );
}

/** Which till this device is (issue 55): kept on the device, sent with every sale and return. */
function TillSetting({ tillId, onChange }: { tillId: string; onChange: (tillId: string) => void }) {
  const [typed, setTyped] = useState(tillId);
  const [problem, setProblem] = useState('');
  const save = (event: FormEvent) => {
    event.preventDefault();
    const saved = writeTillId(typed);
    if ('problem' in saved) {
      setProblem(saved.problem);
      return;
    }
    setProblem('');
    setTyped(saved.tillId);
    onChange(saved.tillId);
  };
  return (
    <form onSubmit={save} className="flex flex-wrap items-end gap-2 text-sm print:hidden" aria-label="This till">
      <div>
        <label htmlFor="till-id" className="mb-1 block font-semibold text-gray-700">Till</label>
        <input id="till-id" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={40} autoComplete="off" aria-describedby="till-id-help"
          aria-invalid={problem ? true : undefined} className={`${fieldClass} w-40`} />
      </div>
      <button type="submit" disabled={typed === tillId} className={buttonClass('secondary', 'sm', 'h-9')}>Save Till</button>
      <p id="till-id-help" className="basis-full text-xs text-gray-600">{problem ? <span role="alert" className="text-danger">{problem}</span> : 'This device\'s till, such as till-1: each sale and return names it.'}</p>
    </form>
  );
}
