import type { Reader } from '@bookstore/contract';
import { useState } from 'react';
import { textLink } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { formatDate } from '../../../lib/format';
import { confirmBox } from '../../../lib/notify';
import { useRemoveReader } from '../api/readers-api';

// The registered readers: one card each on phones, a table from tablet width (as the other
// dashboard lists); Remove (owners and managers) asks first, then deletes it at Stripe and here.

const COLUMNS = [{ label: 'Label' }, { label: 'Till', className: 'px-4 py-3' }, { label: 'Device', className: 'px-4 py-3' }, { label: 'Added', className: 'px-4 py-3' }, { label: 'Actions', className: 'px-6 py-3 text-right' }] as const;
const DEVICE_LABELS: Record<string, string> = { simulated_wisepos_e: 'Simulated WisePOS E', bbpos_wisepos_e: 'WisePOS E', stripe_s700: 'Stripe S700', bbpos_wisepad3: 'WisePad 3' };
const device = (type: string | null) => (type ? DEVICE_LABELS[type] ?? type : 'Unknown');

export function ReaderList({ readers, canRemove }: { readers: Reader[]; canRemove: boolean }) {
  const remove = useRemoveReader();
  const [problem, setProblem] = useState<string | null>(null);
  const ask = async (reader: Reader) => {
    if (!(await confirmBox('Remove this card reader?', `${reader.label} (till ${reader.tillId}) will no longer take payments at the counter.`, 'Remove'))) return;
    setProblem(null);
    try {
      await remove.mutateAsync(reader._id);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : 'The reader could not be removed: try again.');
    }
  };
  const removeButton = (reader: Reader) =>
    canRemove && (
      <button type="button" disabled={remove.isPending} onClick={() => void ask(reader)} aria-label={`Remove ${reader.label}`} className={textLink}>Remove</button>
    );
  const stripeId = (reader: Reader) => <span className="block font-mono text-xs break-all text-gray-600">{reader.stripeReaderId}</span>;
  return (
    <>
      {problem && <p role="alert" className="mx-4 mb-3 rounded-md bg-danger-soft px-3 py-2 text-sm text-danger sm:mx-6">{problem}</p>}
      {/* Phones: one card per reader. */}
      <ul aria-label="Card readers" className="divide-y divide-gray-100 border-t border-gray-100 md:hidden">
        {readers.map((reader) => (
          <li key={reader._id} className="px-4 py-4">
            <span className="flex items-start justify-between gap-3">
              <span className="min-w-0 font-semibold break-words text-gray-900">{reader.label}</span>
              {removeButton(reader)}
            </span>
            <span className="mt-1 block text-sm text-gray-700">Till {reader.tillId} · {device(reader.deviceType)}</span>
            <span className="mt-1 block text-sm text-gray-600">Added {formatDate(reader.createdAt)}</span>
            {stripeId(reader)}
          </li>
        ))}
      </ul>
      {/* Tablets and up: a table. */}
      <div className="hidden overflow-x-auto md:block">
        <DataTable columns={canRemove ? COLUMNS : COLUMNS.slice(0, -1)}>
          {readers.map((reader) => (
            <tr key={reader._id} className="border-t border-gray-100 hover:bg-gray-50">
              <td className="max-w-72 px-6 py-3">
                <span className="block truncate font-medium" title={reader.label}>{reader.label}</span>
                {stripeId(reader)}
              </td>
              <td className="px-4 py-3 whitespace-nowrap">{reader.tillId}</td>
              <td className="px-4 py-3 whitespace-nowrap">{device(reader.deviceType)}</td>
              <td className="px-4 py-3 whitespace-nowrap">{formatDate(reader.createdAt)}</td>
              {canRemove && <td className="px-6 py-3 text-right">{removeButton(reader)}</td>}
            </tr>
          ))}
        </DataTable>
      </div>
    </>
  );
}
