import { useState, type FormEvent } from 'react';
import { buttonClass, fieldClass } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/format';
import { writeTillId } from './till';
import type { useCounterDevice } from './use-counter-device';

/** Online or not, how many books the device holds, and the gift card codes it keeps for selling offline. */
export function DeviceStatus({ device }: { device: ReturnType<typeof useCounterDevice> }) {
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
export function TillSetting({ tillId, onChange }: { tillId: string; onChange: (tillId: string) => void }) {
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
