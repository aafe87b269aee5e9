import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { buttonClass } from '../../../components/ui/button';
import { usePageTitle } from '../../../lib/use-page-title';
import { readersQuery } from '../api/readers-api';
import { useMe } from '../api/staff-api';
import { ReaderList } from './reader-list';
import { RegisterReaderForm } from './register-reader-form';

// The tills' card readers (issue 57): the Stripe Terminal readers registered per till, which the
// Counter's 'Card on Terminal' sends a sale to. Anyone at the counter (`sales.counter`) sees the
// list; owners and managers (`terminal.readers`) register and remove readers, as the API allows.

export function Component() {
  usePageTitle('Card Readers');
  const me = useMe();
  const canView = me.can('sales.counter');
  const canManage = me.can('terminal.readers');
  const readers = useQuery({ ...readersQuery(), enabled: canView });

  if (me.data && !canView) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot see the tills&apos; card readers.</p>;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold">Card Readers</h2>
          <p className="text-gray-700">The Stripe Terminal reader at each till, for &lsquo;Card on Terminal&rsquo;.</p>
        </div>
        <Link to="/dashboard/counter" className={buttonClass('secondary', 'md')}>Counter</Link>
      </div>
      <section aria-labelledby="readers-heading" className="rounded-lg bg-white shadow">
        <h3 id="readers-heading" className="px-4 pt-4 text-lg font-semibold sm:px-6">Registered readers</h3>
        <div aria-busy={readers.isPending} className="pt-3">
          {readers.isPending ? (
            <p role="status" className="px-6 py-12 text-center text-gray-600">Loading the card readers…</p>
          ) : readers.isError ? (
            <div role="alert" className="px-6 py-12 text-center text-danger">
              The card readers cannot be loaded: {readers.error.message}{' '}
              <button type="button" onClick={() => void readers.refetch()} className="font-semibold underline">Try Again</button>
            </div>
          ) : readers.data.length === 0 ? (
            <p className="px-6 py-12 text-center text-gray-600">No card reader is registered yet.{canManage ? ' Register the till\u2019s reader below.' : ' A manager registers the till\u2019s reader.'}</p>
          ) : (
            <ReaderList readers={readers.data} canRemove={canManage} />
          )}
        </div>
      </section>
      {canManage && <RegisterReaderForm />}
    </div>
  );
}
