import { MAX_MAIL_ATTEMPTS, type FailedMail, type WaitingMail } from '@bookstore/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { buttonClass } from '../../../components/ui/button';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { usePageTitle } from '../../../lib/use-page-title';
import { failedMailQuery, useResendMail, waitingMailQuery } from '../api/mail-api';
import { useMe } from '../api/staff-api';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** Why a mail has not gone out yet, in the staff's words. */
function why(mail: WaitingMail): string {
  if (mail.state === 'RETRY') {
    const refused = `Try ${mail.attempts} of ${MAX_MAIL_ATTEMPTS} was refused for now${mail.error ? `: ${mail.error}` : ''}.`;
    return mail.stuck ? `${refused} Its next try is overdue: the mail sweeper may not be running.` : `${refused} It is tried again at ${when(mail.nextAttemptAt)}.`;
  }
  if (mail.state === 'PROCESSING') {
    return mail.stuck
      ? `Stuck: the sender that took it stopped mid-try (its lease ran out at ${when(mail.nextAttemptAt)}). It is tried again within a minute.`
      : 'Being sent now.';
  }
  return mail.stuck ? 'Stuck: queued, but no sender took it. It is tried within a minute.' : 'Queued: on its way.';
}

function Waiting({ mail }: { mail: WaitingMail }) {
  const label = mail.stuck ? 'Stuck' : mail.state === 'RETRY' ? 'Retrying' : 'Sending';
  return (
    <li className="px-4 py-3 sm:px-6">
      <p className="flex flex-wrap items-baseline gap-x-3">
        <span className="font-medium [overflow-wrap:anywhere]">{mail.subject || '(no subject)'}</span>
        <span className={`ml-auto rounded px-2 text-sm ${mail.stuck ? 'bg-danger-soft text-danger' : 'bg-primary-soft text-secondary'}`}>{label}</span>
      </p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="text-gray-600">To</dt>
        <dd className="[overflow-wrap:anywhere]">{mail.to || '(no address)'}</dd>
        <dt className="text-gray-600">Why</dt>
        <dd className="[overflow-wrap:anywhere]">{why(mail)}</dd>
        <dt className="text-gray-600">Queued</dt>
        <dd>{when(mail.queuedAt)}</dd>
        <dt className="text-gray-600">Mail id</dt>
        <dd className="font-mono [overflow-wrap:anywhere]">{mail.id}</dd>
      </dl>
    </li>
  );
}

function Failed({ mail }: { mail: FailedMail }) {
  const resend = useResendMail();
  const sent = resend.isSuccess;
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
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <button type="button" disabled={resend.isPending || sent || !mail.to} onClick={() => resend.mutate(mail.id)} className={buttonClass('secondary', 'sm')}>
          {resend.isPending ? 'Sending Again...' : 'Send Again'}
        </button>
        <p role="status" className="text-sm">
          {sent ? 'Queued again: it goes out within a minute.' : resend.isError ? <span className="text-danger">{resend.error.message}</span> : null}
        </p>
      </div>
    </li>
  );
}

function WaitingSection() {
  const list = useInfiniteQuery(waitingMailQuery());
  const mails = list.data?.pages.flatMap((p) => p.mail) ?? [];
  return (
    <section aria-labelledby="waiting-mail-heading" className="rounded-lg bg-white shadow">
      <h2 id="waiting-mail-heading" className="px-4 pt-4 text-xl font-semibold sm:px-6">Mail Not Sent Yet</h2>
      <p className="px-4 pb-3 pt-1 text-sm text-gray-600 sm:px-6">
        Mail the server refused for now (tried again later, for about a day), and mail that is stuck. Nothing to do unless it stays stuck.
      </p>
      {list.isPending ? (
        <FullScreenSpinner />
      ) : list.isError ? (
        <p role="alert" className="px-4 py-6 sm:px-6">{list.error.message}</p>
      ) : (
        <>
          {mails.length === 0 && <p className="border-t border-gray-100 px-4 py-6 text-gray-600 sm:px-6">Every mail has gone out.</p>}
          <ol className="divide-y divide-gray-100 border-t border-gray-100">{mails.map((mail) => <Waiting key={mail.id} mail={mail} />)}</ol>
          {list.hasNextPage && (
            <div className="border-t border-gray-100 p-4 text-center">
              <button type="button" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} className={buttonClass('secondary', 'md')}>
                {list.isFetchingNextPage ? 'Loading...' : 'More'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** The mail the shop could not send (the latest failure first), and what it is still trying (owners and managers). */
export function Component() {
  usePageTitle('Failed Mail');
  const me = useMe();
  const allowed = me.can('mail.failed');
  const list = useInfiniteQuery({ ...failedMailQuery(), enabled: allowed });
  if (me.data && !allowed) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot see failed mail.</p>;
  const mails = list.data?.pages.flatMap((p) => p.mail) ?? [];

  return (
    <div className="space-y-6">
      <section aria-labelledby="failed-mail-heading" className="rounded-lg bg-white shadow">
        <h2 id="failed-mail-heading" className="px-4 pt-4 text-xl font-semibold sm:px-6">Failed Mail</h2>
        <p className="px-4 pb-3 pt-1 text-sm text-gray-600 sm:px-6">
          Mail the shop gave up sending: a refusal by the mail server, or {MAX_MAIL_ATTEMPTS} tries over about a day that failed. The customer did not get it. Send Again tries it once more.
        </p>
        {list.isPending ? (
          <FullScreenSpinner />
        ) : list.isError ? (
          <p role="alert" className="px-4 py-6 sm:px-6">{list.error.message}</p>
        ) : (
          <>
            {mails.length === 0 && <p className="border-t border-gray-100 px-4 py-6 text-gray-600 sm:px-6">No failed mail.</p>}
            <ol className="divide-y divide-gray-100 border-t border-gray-100">{mails.map((mail) => <Failed key={mail.id} mail={mail} />)}</ol>
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
      {allowed && <WaitingSection />}
    </div>
  );
}
