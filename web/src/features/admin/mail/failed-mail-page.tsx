import { MAX_MAIL_ATTEMPTS, type FailedMail } from '@bookstore/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { buttonClass } from '../../../components/ui/button';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { usePageTitle } from '../../../lib/use-page-title';
import { failedMailQuery } from '../api/mail-api';
import { useMe } from '../api/staff-api';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function Mail({ mail }: { mail: FailedMail }) {
  return (
    <li className="px-4 py-3 sm:px-6">
      <p className="flex flex-wrap items-baseline gap-x-3">
        <span className="font-medium [overflow-wrap:anywhere]">{mail.subject || '(no subject)'}</span>
        <time dateTime={mail.failedAt ?? undefined} className="ml-auto text-sm text-gray-600">{when(mail.failedAt)}</time>
      </p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="text-gray-600">To</dt>
        <dd className="[overflow-wrap:anywhere]">{mail.to || '(no address)'}</dd>
        <dt className="text-gray-600">Tries</dt>
        <dd>{mail.attempts} of {MAX_MAIL_ATTEMPTS}</dd>
        <dt className="text-gray-600">Error</dt>
        <dd className="text-danger [overflow-wrap:anywhere]">{mail.error}</dd>
        <dt className="text-gray-600">Queued</dt>
        <dd>{when(mail.queuedAt)}</dd>
        <dt className="text-gray-600">Mail id</dt>
        <dd className="font-mono [overflow-wrap:anywhere]">{mail.id}</dd>
      </dl>
    </li>
  );
}

/** The mail the shop could not send, the latest failure first (owners and managers). */
export function Component() {
  usePageTitle('Failed Mail');
  const me = useMe();
  const list = useInfiniteQuery({ ...failedMailQuery(), enabled: me.can('mail.failed') });
  if (me.data && !me.can('mail.failed')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot see failed mail.</p>;
  const mails = list.data?.pages.flatMap((p) => p.mail) ?? [];

  return (
    <section aria-labelledby="failed-mail-heading" className="rounded-lg bg-white shadow">
      <h2 id="failed-mail-heading" className="px-4 pt-4 text-xl font-semibold sm:px-6">Failed Mail</h2>
      <p className="px-4 pb-3 pt-1 text-sm text-gray-600 sm:px-6">
        Mail the shop gave up sending: a refusal by the mail server, or {MAX_MAIL_ATTEMPTS} tries that failed. The customer did not get it.
      </p>
      {list.isPending ? (
        <FullScreenSpinner />
      ) : list.isError ? (
        <p role="alert" className="px-4 py-6 sm:px-6">{list.error.message}</p>
      ) : (
        <>
          {mails.length === 0 && <p className="border-t border-gray-100 px-4 py-6 text-gray-600 sm:px-6">No failed mail.</p>}
          <ol className="divide-y divide-gray-100 border-t border-gray-100">{mails.map((mail) => <Mail key={mail.id} mail={mail} />)}</ol>
          {list.hasNextPage && (
            <div className="border-t border-gray-100 p-4 text-center">
              <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} className={buttonClass('secondary', 'md')}>
                {list.isFetchingNextPage ? 'Loading...' : 'Older Failures'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
