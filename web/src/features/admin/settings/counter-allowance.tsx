import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { toast } from '../../../lib/notify';
import { counterSettingsQuery, useSaveCounterSettings } from '../api/counter-settings-api';

// The counter allowance (issue 55): what a bookseller may issue or pay out at the counter (gift
// cards sold, store credit, refunds) per till and shop day; past it, a manager approves on the till.

export function CounterAllowance() {
  const current = useQuery(counterSettingsQuery());
  if (!current.data) return current.isError ? <p role="alert" className="text-danger">Could not load the counter allowance.</p> : null;
  return <AllowanceForm initial={current.data.allowance} />;
}

function AllowanceForm({ initial }: { initial: number }) {
  const [typed, setTyped] = useState(initial.toFixed(2));
  const [problem, setProblem] = useState('');
  const save = useSaveCounterSettings();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    try {
      const saved = await save.mutateAsync(typed.trim());
      setTyped(saved.allowance.toFixed(2));
      void toast('Counter allowance saved', { timer: 2000 });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'Could not save the allowance');
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} aria-labelledby="allowance-heading" className="space-y-3 rounded-lg bg-white p-4 shadow sm:p-6">
      <h3 id="allowance-heading" className="text-lg font-bold">Counter allowance</h3>
      <div>
        <label htmlFor="counter-allowance" className="block text-sm font-semibold text-gray-700">A bookseller may issue or pay out per till and day ($)</label>
        <input id="counter-allowance" value={typed} onChange={(e) => setTyped(e.target.value)} inputMode="decimal" autoComplete="off" aria-describedby="counter-allowance-help"
          className="mt-1 w-40 rounded-md border border-gray-300 px-3 py-2 focus:outline-2 focus:outline-accent" />
        <p id="counter-allowance-help" className="mt-1 text-sm text-gray-600">Gift cards sold, store credit and refunds at the counter. Past it, or to take back a sale of another day or till, a manager approves on the till.</p>
      </div>
      {problem && <p role="alert" className="text-sm text-danger">{problem}</p>}
      <button type="submit" disabled={save.isPending} className={buttonClass('primary', 'md')}>Save Allowance</button>
    </form>
  );
}
