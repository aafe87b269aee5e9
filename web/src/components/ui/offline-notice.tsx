import type { ReactNode } from 'react';
import { useOnline } from '../../lib/use-online';

/**
 * 'You are offline' above a form that sends something, while the browser has no network. The form
 * disables its submit button with the same `useOnline()`; both come back by themselves when the
 * network does.
 */
export function OfflineNotice({ className = '', children }: { className?: string; children?: ReactNode }) {
  const online = useOnline();
  if (online) return null;
  return (
    <p role="status" className={`rounded-md border border-primary bg-primary-soft px-4 py-3 text-sm text-secondary ${className}`}>
      <strong>You are offline</strong>. {children ?? 'This can be sent once your connection is back; nothing you typed is lost.'}
    </p>
  );
}
