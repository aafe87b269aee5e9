import { buttonClass, textLink } from '../../../components/ui/button';
import { BulkBooksSchema, MAX_PRICE_DOLLARS, MAX_STOCK, type BulkBooks } from '@bookstore/contract';
import { useState, type FormEvent } from 'react';

// Manage Books' bulk change (issue 26): what to do with the selected books, as one request. Only
// the actions the staff member's role allows are offered (the server checks the same table).

type Action = BulkBooks['action'];
const LABELS: Record<Action, string> = { price: 'Set price', stock: 'Set stock', delete: 'Delete' };

export function BulkBar({ count, allowed, busy, onApply, onClear }: {
  count: number;
  allowed: Action[];
  busy: boolean;
  /** Resolves when the change is done (or refused); the bar keeps its value on failure. */
  onApply: (bulk: BulkBooks) => Promise<void>;
  onClear: () => void;
}) {
  const [action, setAction] = useState<Action>(allowed[0] ?? 'stock');
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  if (allowed.length === 0) return null;
  const current = allowed.includes(action) ? action : allowed[0]!;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const raw = current === 'price' ? { action: current, ids: ['x'], newPrice: value } : current === 'stock' ? { action: current, ids: ['x'], stock: value.trim() === '' ? undefined : value } : { action: current, ids: ['x'] };
    const parsed = BulkBooksSchema.safeParse(raw);
    if (!parsed.success) {
      setError(current === 'stock' && value.trim() === '' ? 'Enter the stock' : parsed.error.issues[0]!.message);
      return;
    }
    setError('');
    await onApply(parsed.data);
  };

  return (
    <form onSubmit={(e) => void submit(e)} aria-label="Change the selected books" className="flex flex-wrap items-end gap-2 border-t border-gray-200 bg-accent-soft px-4 py-3">
      <p className="w-full text-sm font-semibold text-accent sm:w-auto sm:self-center" role="status">{count} selected</p>
      <div>
        <label htmlFor="bulk-action" className="mb-1 block text-xs font-semibold text-gray-600">Change</label>
        <select id="bulk-action" value={current} onChange={(e) => { setAction(e.target.value as Action); setError(''); }} className="rounded-md border border-gray-300 bg-white px-2 py-2 text-sm">
          {allowed.map((a) => <option key={a} value={a}>{LABELS[a]}</option>)}
        </select>
      </div>
      {current !== 'delete' && (
        <div className="w-28">
          <label htmlFor="bulk-value" className="mb-1 block text-xs font-semibold text-gray-600">{current === 'price' ? 'New price ($)' : 'Stock'}</label>
          <input
            id="bulk-value"
            type="number"
            inputMode={current === 'price' ? 'decimal' : 'numeric'}
            step={current === 'price' ? '0.01' : '1'}
            min="0"
            max={current === 'price' ? MAX_PRICE_DOLLARS : MAX_STOCK}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'bulk-error' : undefined}
            className="w-full rounded-md border border-gray-300 px-2 py-2 text-sm"
          />
        </div>
      )}
      <button type="submit" disabled={busy} className={buttonClass(current === 'delete' ? 'danger' : 'primary', 'md')}>
        {busy ? 'Saving…' : current === 'delete' ? `Delete ${count}` : `Apply to ${count}`}
      </button>
      <button type="button" onClick={onClear} className={`px-3 py-2 text-sm ${textLink}`}>Clear selection</button>
      {error && <p id="bulk-error" className="w-full text-sm text-danger">{error}</p>}
    </form>
  );
}
