import { buttonClass } from '../../../components/ui/button';
import { AUDIT_ACTIONS, ROLE_LABELS, type AuditAction, type AuditEvent } from '@bookstore/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { usePageTitle } from '../../../lib/use-page-title';
import { auditQuery, useMe } from '../api/staff-api';

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

function Event({ event }: { event: AuditEvent }) {
  const changes = Object.entries(event.changes);
  return (
    <li className="px-4 py-3 sm:px-6">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium">{event.actor}</span>
        <span className="text-sm text-gray-600">({ROLE_LABELS[event.role]})</span>
        <span className="rounded bg-accent-soft px-2 font-mono text-sm text-accent">{event.action}</span>
        <span className="break-all text-sm">{event.target}</span>
        {event.outOfChain && (
          <span className="rounded bg-danger-soft px-2 text-sm font-semibold text-danger" title="Written without its place in the audit chain, after the chain began: not by the shop. npm run audit:verify names it.">
            Not in the audit chain
          </span>
        )}
        <time dateTime={event.at} className="ml-auto text-sm text-gray-600">{new Date(event.at).toLocaleString()}</time>
      </p>
      {changes.length > 0 && (
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
          {changes.map(([name, change]) => (
            <div key={name} className="contents">
              <dt className="font-mono text-gray-600">{name}</dt>
              <dd className="break-all">{show(change.before)} → {show(change.after)}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

/** Who changed what, newest first, filtered by person and action (owners and managers). */
export function Component() {
  usePageTitle('Audit Log');
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const actor = params.get('actor') ?? '';
  const action = (AUDIT_ACTIONS as readonly string[]).includes(params.get('action') ?? '') ? (params.get('action') as AuditAction) : '';
  const log = useInfiniteQuery({ ...auditQuery({ actor, action }), enabled: me.can('audit.view') });
  if (me.data && !me.can('audit.view')) return <p className="rounded-lg bg-white p-6 shadow">Your role cannot see the audit log.</p>;

  const filter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const next = new URLSearchParams();
    const a = String(form.get('actor') ?? '').trim().toLowerCase();
    const act = String(form.get('action') ?? '');
    if (a) next.set('actor', a);
    if (act) next.set('action', act);
    setParams(next);
  };
  const events = log.data?.pages.flatMap((p) => p.events) ?? [];

  return (
    <section aria-labelledby="audit-heading" className="rounded-lg bg-white shadow">
      <h2 id="audit-heading" className="px-4 pt-4 text-xl font-semibold sm:px-6">Audit Log</h2>
      <form onSubmit={filter} className="flex flex-wrap items-end gap-3 px-4 py-3 sm:px-6" key={`${actor}|${action}`}>
        <div>
          <label htmlFor="audit-actor" className="mb-1 block text-sm font-bold text-gray-700">Person</label>
          <input id="audit-actor" name="actor" defaultValue={actor} placeholder="username" className="w-40 rounded border border-gray-300 px-3 py-2" />
        </div>
        <div>
          <label htmlFor="audit-action" className="mb-1 block text-sm font-bold text-gray-700">Action</label>
          <select id="audit-action" name="action" defaultValue={action} className="rounded border border-gray-300 px-3 py-2">
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => <option key={a} value={a}>{a}</option>)}
          </select>
        </div>
        <button className={buttonClass('primary', 'md')}>Filter</button>
      </form>
      {log.isPending ? (
        <FullScreenSpinner />
      ) : log.isError ? (
        <p role="alert" className="px-4 py-6 sm:px-6">{log.error.message}</p>
      ) : (
        <>
          {events.length === 0 && <p className="px-4 py-6 text-gray-600 sm:px-6">No events.</p>}
          <ol className="divide-y divide-gray-100 border-t border-gray-100">{events.map((event) => <Event key={event.id} event={event} />)}</ol>
          {log.hasNextPage && (
            <div className="border-t border-gray-100 p-4 text-center">
              <button type="button" disabled={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()} className={buttonClass('secondary', 'md')}>
                {log.isFetchingNextPage ? 'Loading...' : 'Older Events'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
