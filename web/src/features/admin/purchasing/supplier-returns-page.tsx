import { ISBN_MESSAGE, toIsbn13 } from '@bookstore/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { buttonClass, textLink } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/use-page-title';
import { useMe } from '../api/staff-api';
import { suppliersQuery, useReturnToSupplier } from './purchasing-api';

// Returns to suppliers (issue 56; owner and manager): copies off the shelf, never more than it
// holds (the server answers which ISBNs are short), under one returnId made here (a retry is the
// same return); the supplier is mailed the returns note.

const INPUT = 'mt-1 h-10 w-full rounded-md border border-gray-300 bg-gray-50 px-3 focus:bg-white focus:outline-2 focus:outline-accent';

export function Component() {
  usePageTitle('Supplier Returns');
  const me = useMe();
  const suppliers = useInfiniteQuery({ ...suppliersQuery(), enabled: me.can('purchasing.manage') });
  const send = useReturnToSupplier();
  const [lines, setLines] = useState<{ isbn: string; quantity: number }[]>([]);
  const [supplierId, setSupplierId] = useState('');
  const [note, setNote] = useState('');
  const [returnId, setReturnId] = useState(() => crypto.randomUUID());
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  if (me.data && !me.can('purchasing.manage')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot return books to suppliers.</p>;

  const add = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const typed = String(new FormData(form).get('isbn') ?? '');
    const isbn = toIsbn13(typed);
    if (!isbn) return setError(ISBN_MESSAGE);
    setError('');
    setLines((current) => (current.some((l) => l.isbn === isbn) ? current.map((l) => (l.isbn === isbn ? { ...l, quantity: l.quantity + 1 } : l)) : [...current, { isbn, quantity: 1 }]));
    form.reset();
  };
  const submit = async () => {
    setError('');
    setDone('');
    try {
      const { supplierReturn } = await send.mutateAsync({ returnId, supplierId, lines, ...(note.trim() ? { note: note.trim() } : {}) });
      setDone(`Returned ${supplierReturn.lines.reduce((n, l) => n + l.quantity, 0)} copies.`);
      setLines([]);
      setNote('');
      setReturnId(crypto.randomUUID());
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as { isbns?: string[] } | undefined) : undefined;
      setError(body?.isbns ? `Not enough copies on the shelf: ${body.isbns.join(', ')}` : err instanceof ApiError ? err.message : 'Could not return: try again');
    }
  };
  const supplierList = suppliers.data?.pages.flatMap((p) => p.suppliers) ?? [];
  return (
    <section aria-labelledby="returns-heading" className="rounded-lg bg-white p-4 shadow sm:p-6">
      <h1 id="returns-heading" className="text-xl font-semibold">Supplier Returns</h1>
      <div className="mt-4">
        <label htmlFor="return-supplier">Supplier</label>
        <select id="return-supplier" value={supplierId} onChange={(e) => setSupplierId(e.target.value)} className={INPUT}>
          <option value="">Choose a supplier</option>
          {supplierList.map((s) => <option key={s._id} value={s._id}>{s.name}</option>)}
        </select>
      </div>
      <form onSubmit={add} className="mt-4 flex items-end gap-2">
        <div className="grow"><label htmlFor="return-isbn">Scan or type an ISBN</label><input id="return-isbn" name="isbn" inputMode="numeric" autoComplete="off" className={INPUT} /></div>
        <button type="submit" className={buttonClass('secondary', 'md')}>Add</button>
      </form>
      {lines.length > 0 && (
        <ul aria-label="Copies to return" className="mt-4 divide-y divide-gray-100 rounded-md border border-gray-200">
          {lines.map((line) => (
            <li key={line.isbn} className="flex flex-wrap items-center gap-3 px-3 py-2">
              <span className="grow font-mono">{line.isbn}</span>
              <input type="number" min={1} value={line.quantity} aria-label={`Copies of ${line.isbn}`} onChange={(e) => setLines((c) => c.map((l) => (l.isbn === line.isbn ? { ...l, quantity: Math.max(1, Math.floor(Number(e.target.value) || 1)) } : l)))} className="h-10 w-20 rounded-md border border-gray-300 bg-gray-50 px-2 text-right" />
              <button type="button" className={textLink} onClick={() => setLines((c) => c.filter((l) => l.isbn !== line.isbn))} aria-label={`Remove ${line.isbn}`}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4"><label htmlFor="return-note">Note (optional)</label><textarea id="return-note" value={note} onChange={(e) => setNote(e.target.value)} className="mt-1 w-full rounded-md border border-gray-300 bg-gray-50 p-3" rows={2} /></div>
      {error && <p role="alert" className="mt-3 text-danger">{error}</p>}
      {done && <p role="status" className="mt-3 font-medium text-accent">{done}</p>}
      <div className="mt-4"><button type="button" className={buttonClass('primary', 'md')} disabled={!supplierId || lines.length === 0 || send.isPending} onClick={() => void submit()}>Return to Supplier</button></div>
    </section>
  );
}
