import { PETTY_CASH_LABELS, PAYMENT_METHOD_LABELS, shopDay, Z_REPORT_FINAL_HEADER, type PettyCashKind, type Shift } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass, fieldClass } from '../../../components/ui/button';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { formatDateTime, money } from '../../../lib/format';
import { usePageTitle } from '../../../lib/use-page-title';
import { ApiError } from '../../../lib/api-client';
import { dayShiftsQuery, openShiftQuery, useShiftChange, zReportPath } from '../api/shifts-api';
import { readTillId } from './till';
import { printOnTill } from './till-print';

// The till's shift (issue 57): open it with the float in the drawer, record pay-ins and pay-outs
// with a reason, close it with the cash counted: the shop says what the drawer should hold and the
// difference. Below, the day's shifts of every till: the day's Z-report, printable. A Z-report prints
// as the shop makes it (ESC/POS on the till's paired receipt printer, else its 80 mm page), as a
// sale's receipt does (till-print.ts); when the shop cannot be reached, this page prints itself.

const label = 'mb-1 block text-sm font-semibold text-gray-700';

export function Component() {
  usePageTitle('Shifts');
  const tillId = readTillId();
  const open = useQuery(openShiftQuery(tillId));
  const change = useShiftChange();
  const [closed, setClosed] = useState<Shift | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async (path: string, body: unknown): Promise<Shift | null> => {
    setProblem(null);
    try {
      return await change.mutateAsync({ path, body });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The shop could not be reached: try again.');
      return null;
    }
  };
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <div>
          <h2 className="text-2xl font-bold">Shifts</h2>
          <p className="text-gray-700">This till: <strong>{tillId}</strong></p>
        </div>
        <Link to="/dashboard/counter" className={buttonClass('secondary', 'md')}>Counter</Link>
      </div>
      {problem && <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger print:hidden">{problem}</p>}
      {closed && <ClosedShift shift={closed} />}
      {open.isPending ? (
        <FullScreenSpinner />
      ) : open.isError ? (
        <p role="alert" className="rounded-lg bg-white p-6 shadow">The shift cannot be loaded: {open.error.message}</p>
      ) : open.data ? (
        <OpenShift shift={open.data} busy={change.isPending} send={send} onClosed={setClosed} />
      ) : (
        <OpenForm busy={change.isPending} onOpen={async (float) => { setClosed(null); await send('/api/admin/shifts', { tillId, float }); }} />
      )}
      <DayReport />
    </div>
  );
}

function OpenForm({ busy, onOpen }: { busy: boolean; onOpen: (float: string) => Promise<void> }) {
  const [float, setFloat] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onOpen(float.trim());
  };
  return (
    <form onSubmit={submit} aria-labelledby="open-heading" className="space-y-3 rounded-lg bg-white p-4 shadow sm:p-6 print:hidden">
      <h3 id="open-heading" className="text-xl font-bold">No shift is open on this till</h3>
      <div className="max-w-xs">
        <label htmlFor="shift-float" className={label}>Float in the drawer ($)</label>
        <input id="shift-float" inputMode="decimal" required value={float} onChange={(e) => setFloat(e.target.value)} className={fieldClass} />
      </div>
      <button type="submit" disabled={busy || !float.trim()} className={buttonClass('primary', 'lg')}>Open Shift</button>
    </form>
  );
}

function Figures({ shift }: { shift: Shift }) {
  const f = shift.figures;
  const rows: [string, string][] = [
    ['Float', money(shift.float)],
    ...Object.entries(f.sales.byMethod).map(([m, v]): [string, string] => [`${PAYMENT_METHOD_LABELS[m as keyof typeof PAYMENT_METHOD_LABELS] ?? m} sales`, money(v)]),
    ['Cash refunds', `-${money(f.refunds.byMethod.cash ?? 0)}`],
    ['Pay-ins', money(f.payIns)],
    ['Pay-outs', `-${money(f.payOuts)}`],
  ];
  return (
    <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents"><dt className="text-gray-700">{k}</dt><dd className="text-right tabular-nums">{v}</dd></div>
      ))}
      <div className="contents"><dt className="font-bold">Expected cash</dt><dd className="text-right font-bold tabular-nums" data-testid="shift-expected">{money(f.expected)}</dd></div>
    </dl>
  );
}

function OpenShift({ shift, busy, send, onClosed }: { shift: Shift; busy: boolean; send: (path: string, body: unknown) => Promise<Shift | null>; onClosed: (shift: Shift) => void }) {
  const [kind, setKind] = useState<PettyCashKind>('pay_out');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [counted, setCounted] = useState('');
  const record = async (e: FormEvent) => {
    e.preventDefault();
    if (await send(`/api/admin/shifts/${shift._id}/petty-cash`, { kind, amount: amount.trim(), reason })) {
      setAmount('');
      setReason('');
    }
  };
  const close = async (e: FormEvent) => {
    e.preventDefault();
    const done = await send(`/api/admin/shifts/${shift._id}/close`, { counted: counted.trim() });
    if (done) onClosed(done);
  };
  return (
    <section aria-labelledby="shift-heading" className="space-y-6 rounded-lg bg-white p-4 shadow sm:p-6 print:hidden">
      <div>
        <h3 id="shift-heading" className="text-xl font-bold">Shift open</h3>
        <p className="text-sm text-gray-700">Opened {formatDateTime(shift.openedAt)} by {shift.openedBy}</p>
      </div>
      <Figures shift={shift} />
      <form onSubmit={record} aria-labelledby="petty-heading" className="space-y-3 border-t border-gray-100 pt-4">
        <h4 id="petty-heading" className="font-semibold">Pay-in or pay-out</h4>
        <div className="grid gap-3 sm:grid-cols-[10rem_8rem_1fr]">
          <div>
            <label htmlFor="petty-kind" className={label}>Kind</label>
            <select id="petty-kind" value={kind} onChange={(e) => setKind(e.target.value as PettyCashKind)} className={fieldClass}>
              {(['pay_out', 'pay_in'] as const).map((k) => <option key={k} value={k}>{PETTY_CASH_LABELS[k]}</option>)}
            </select>
          </div>
          <div>
            <label htmlFor="petty-amount" className={label}>Amount ($)</label>
            <input id="petty-amount" inputMode="decimal" required value={amount} onChange={(e) => setAmount(e.target.value)} className={fieldClass} />
          </div>
          <div>
            <label htmlFor="petty-reason" className={label}>Reason</label>
            <input id="petty-reason" required maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} className={fieldClass} />
          </div>
        </div>
        <button type="submit" disabled={busy || !amount.trim() || !reason.trim()} className={buttonClass('secondary', 'md')}>Record</button>
        {shift.pettyCash.length > 0 && (
          <ul className="divide-y divide-gray-100 text-sm" aria-label="Pay-ins and pay-outs">
            {shift.pettyCash.map((p) => <li key={p.at} className="flex justify-between gap-3 py-1"><span>{PETTY_CASH_LABELS[p.kind]}: {p.reason}</span><span className="tabular-nums">{money(p.amount)}</span></li>)}
          </ul>
        )}
      </form>
      <form onSubmit={close} aria-labelledby="close-heading" className="space-y-3 border-t border-gray-100 pt-4">
        <h4 id="close-heading" className="font-semibold">Close the shift</h4>
        <div className="max-w-xs">
          <label htmlFor="shift-counted" className={label}>Cash counted in the drawer ($)</label>
          <input id="shift-counted" inputMode="decimal" required value={counted} onChange={(e) => setCounted(e.target.value)} className={fieldClass} />
        </div>
        <button type="submit" disabled={busy || !counted.trim()} className={buttonClass('primary', 'lg')}>Close Shift</button>
      </form>
    </section>
  );
}

/** A closed shift's Z-report: what the drawer should have held, what was counted, the difference. */
function ClosedShift({ shift }: { shift: Shift }) {
  const variance = shift.variance ?? 0;
  return (
    <section aria-labelledby="closed-heading" className="space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
      <div role="status">
        <h3 id="closed-heading" className="text-xl font-bold">Shift closed</h3>
        <p className="text-sm text-gray-700">Till {shift.tillId}, {formatDateTime(shift.openedAt)} to {formatDateTime(shift.closedAt ?? '')}, closed by {shift.closedBy}</p>
      </div>
      <Figures shift={shift} />
      <dl className="grid grid-cols-[1fr_auto] gap-x-6 text-sm">
        <dt className="font-bold">Counted</dt><dd className="text-right font-bold tabular-nums">{money(shift.counted ?? 0)}</dd>
        <dt className="font-bold">{variance === 0 ? 'Variance' : variance > 0 ? 'Over' : 'Short'}</dt>
        <dd className={`text-right font-bold tabular-nums ${variance < 0 ? 'text-danger' : ''}`} data-testid="shift-variance">{money(Math.abs(variance))}</dd>
      </dl>
      <PrintZReport label="Print Z-report" path={(format) => zReportPath({ shiftId: shift._id }, format)} />
    </section>
  );
}

/** Every till's shifts opened today: the day's Z-report. */
function DayReport() {
  const date = shopDay(new Date());
  const day = useQuery(dayShiftsQuery(date));
  if (!day.data || day.data.length === 0) return null;
  return (
    <section aria-labelledby="day-shifts" className="rounded-lg bg-white p-4 shadow sm:p-6">
      <h3 id="day-shifts" className="mb-2 font-bold">Today&apos;s shifts</h3>
      <div className="mb-2">
        <PrintZReport label="Print Day's Z-report" path={(format) => zReportPath({ date }, format)} />
      </div>
      <ul className="divide-y divide-gray-100 text-sm">
        {day.data.map((s) => (
          <li key={s._id} className="grid grid-cols-2 gap-x-4 py-2 sm:grid-cols-4">
            <span>Till {s.tillId}</span>
            <span>{s.status === 'open' ? 'Open' : `Closed ${formatDateTime(s.closedAt ?? '')}`}</span>
            <span className="tabular-nums">Expected {money(s.figures.expected)}</span>
            <span className="tabular-nums">{s.status === 'closed' ? `Counted ${money(s.counted ?? 0)}` : ''}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Prints a Z-report on the till's receipt printer, or opens its printable page; offline, prints this page. */
function PrintZReport({ label: text, path }: { label: string; path: (format: 'escpos' | 'html') => string }) {
  const [printing, setPrinting] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const print = async () => {
    setPrinting(true);
    setMessage(null);
    try {
      const done = await printOnTill(path, 'Could not reach the shop: printing this page instead.');
      if (done.via === 'printer') setMessage({ tone: 'info', text: done.response.headers.get(Z_REPORT_FINAL_HEADER) === 'false' ? 'Printed the X-report (not final).' : 'Printed the Z-report.' });
      else if (done.via === 'blocked') setMessage({ tone: 'error', text: 'The browser blocked the Z-report window: allow pop-ups for this site and try again.' });
      else setMessage({ tone: 'info', text: 'The Z-report opened in a new window to print.' });
    } catch (error) {
      // The shop out of reach: the report on this screen prints (the page's controls are print:hidden).
      if (error instanceof ApiError && error.kind === 'FETCH_ERROR') window.print();
      else setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The Z-report could not be printed.' });
    } finally {
      setPrinting(false);
    }
  };
  return (
    <div className="space-y-2 print:hidden">
      <button type="button" disabled={printing} onClick={() => void print()} className={buttonClass('secondary', 'md')}>{text}</button>
      {message && <p role={message.tone === 'error' ? 'alert' : 'status'} className={`rounded-md px-3 py-2 text-sm ${message.tone === 'error' ? 'bg-danger-soft text-danger' : 'bg-accent-soft text-secondary'}`}>{message.text}</p>}
    </div>
  );
}
