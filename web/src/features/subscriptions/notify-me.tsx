import { buttonClass, fieldClass } from '../../components/ui/button';
import { STOCK_ALERT_REQUESTED } from '@bookstore/contract';
import { useState, type FormEvent } from 'react';
import { BellIcon } from '../../components/ui/icons';
import { useAuth } from '../../lib/auth/auth-context';
import { useHydrated } from '../../lib/use-hydrated';
import { useOnline } from '../../lib/use-online';
import { useStockAlert } from './subscriptions-api';

/**
 * 'Email Me When It Is Back' on a sold-out book (issue 28). Signed in: one click, to the account's
 * address. Signed out (and while the page hydrates, as the server drew it): an email field. One
 * mail when the stock comes back, then the request is forgotten.
 */
export function NotifyMe({ bookId }: { bookId: string }) {
  const hydrated = useHydrated();
  const { status, user } = useAuth();
  const signedIn = hydrated && status === 'signedIn';
  const [email, setEmail] = useState('');
  const alert = useStockAlert();
  const online = useOnline();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    alert.mutate(signedIn ? { bookId } : { bookId, email: email.trim() });
  };
  if (alert.isSuccess) {
    return (
      <p role="status" className="flex items-center gap-2 rounded-md bg-accent-soft px-3 py-2 text-sm text-secondary ring-1 ring-accent">
        <BellIcon className="size-4 shrink-0" />
        {signedIn && user?.email ? `We will email ${user.email} when this book is back in stock.` : STOCK_ALERT_REQUESTED}
      </p>
    );
  }
  return (
    <form onSubmit={submit} className="mt-4 max-w-md space-y-2 rounded-md border border-gray-200 p-3" aria-labelledby={`notify-${bookId}`}>
      <p id={`notify-${bookId}`} className="text-sm font-medium">Sold out for now. We can email you once, when it is back.</p>
      {/* Typed before the app starts, the address would be lost: usable once hydrated (decision 038). */}
      <fieldset disabled={!hydrated} role="none" className="flex flex-col gap-2 sm:flex-row">
        {!signedIn && (
          <>
            <label htmlFor={`notify-email-${bookId}`} className="sr-only">Your email</label>
            <input
              id={`notify-email-${bookId}`}
              type="email"
              required
              autoComplete="email"
              maxLength={254}
              placeholder="Your email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              className={`${fieldClass} min-w-0 sm:flex-1`}
            />
          </>
        )}
        <button
          type="submit"
          disabled={alert.isPending || !online || (hydrated && status === 'loading')}
          className={buttonClass('primary', 'md', 'shrink-0')}
        >
          <BellIcon className="size-4" /> Email Me When It Is Back
        </button>
      </fieldset>
      {alert.isError && <p role="alert" className="text-sm text-danger">{alert.error.message}</p>}
    </form>
  );
}
