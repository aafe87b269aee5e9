import { useState, type FormEvent } from 'react';
import { buttonClass, fieldClass } from '../../../components/ui/button';
import { useRegisterReader } from '../api/readers-api';
import { readTillId } from './till';

// 'Register a reader' (owners and managers): the code the reader shows, a label, and the till it
// stands at (this device's till unless typed otherwise). The shop registers it at Stripe; what the
// API refuses (a code Stripe does not know, a bad till id) is said here, as the API words it.

const label = 'mb-1 block text-sm font-semibold text-gray-700';

export function RegisterReaderForm() {
  const register = useRegisterReader();
  const [registrationCode, setCode] = useState('');
  const [readerLabel, setLabel] = useState('');
  const [tillId, setTillId] = useState(readTillId);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    setDone(null);
    try {
      const reader = await register.mutateAsync({ registrationCode: registrationCode.trim(), label: readerLabel.trim(), tillId: tillId.trim() });
      setDone(`Registered ${reader.label} for till ${reader.tillId}.`);
      setCode('');
      setLabel('');
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The reader could not be registered: try again.');
    }
  };
  const ready = registrationCode.trim() && readerLabel.trim() && tillId.trim();
  return (
    <form onSubmit={(e) => void submit(e)} aria-labelledby="register-heading" className="space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
      <h3 id="register-heading" className="text-lg font-semibold">Register a reader</h3>
      <div className="grid gap-4 sm:grid-cols-3">
        <div>
          <label htmlFor="reader-code" className={label}>Registration code</label>
          <input id="reader-code" required maxLength={100} autoComplete="off" aria-describedby="reader-code-hint" value={registrationCode} onChange={(e) => setCode(e.target.value)} className={fieldClass} />
          <p id="reader-code-hint" className="mt-1 text-xs text-gray-600">The code the reader shows (on the local stand-in: <code>simulated-wpe</code>).</p>
        </div>
        <div>
          <label htmlFor="reader-label" className={label}>Label</label>
          <input id="reader-label" required maxLength={60} autoComplete="off" value={readerLabel} onChange={(e) => setLabel(e.target.value)} className={fieldClass} />
        </div>
        <div>
          <label htmlFor="reader-till" className={label}>Till</label>
          <input id="reader-till" required maxLength={40} autoComplete="off" value={tillId} onChange={(e) => setTillId(e.target.value)} className={fieldClass} />
        </div>
      </div>
      {problem && <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">{problem}</p>}
      {done && <p role="status" className="rounded-md bg-accent-soft px-3 py-2 text-sm text-secondary">{done}</p>}
      <button type="submit" disabled={register.isPending || !ready} className={buttonClass('primary', 'md')}>Register Reader</button>
    </form>
  );
}
