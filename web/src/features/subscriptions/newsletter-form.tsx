import { buttonClass } from '../../components/ui/button';
import { NEWSLETTER_CHECK_INBOX } from '@bookstore/contract';
import { useState, type FormEvent } from 'react';
import { useOnline } from '../../lib/use-online';
import { useTypedBeforeStart } from '../../lib/use-typed-before-start';
import { signUpForNewsletter } from './newsletter-sign-up';

/**
 * The footer's newsletter sign-up (issue 28): double opt-in. The API stores the address as pending
 * and mails a confirmation link; so the thanks says to check the inbox, not that it is done. The
 * banner's 'Subscribe' button brings the visitor here (the field's id, `newsletter-email`).
 * The footer is on every page's first load, whose JavaScript has a budget (bundle-budget.test.ts):
 * its one request keeps its state here rather than bring TanStack Query's mutation code along.
 * The field is usable before the app starts (the served page): what is typed there is kept
 * (useTypedBeforeStart), and a Subscribe tapped meanwhile is replayed once the app runs (decision 038).
 */
export function NewsletterForm() {
  const [email, setEmail] = useTypedBeforeStart('newsletter-email');
  const [state, setState] = useState<{ status: 'idle' | 'pending' | 'done' } | { status: 'error'; message: string }>({ status: 'idle' });
  const online = useOnline();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (state.status === 'pending') return;
    setState({ status: 'pending' });
    signUpForNewsletter(email.trim()).then(
      () => setState({ status: 'done' }),
      (error: Error) => setState({ status: 'error', message: error.message }),
    );
  };
  if (state.status === 'done') {
    return <p role="status" className="mt-4 max-w-md text-sm text-primary">{NEWSLETTER_CHECK_INBOX}</p>;
  }
  return (
    <form className="mt-4 max-w-md" onSubmit={submit} id="newsletter">
      <div className="flex">
        <input
          id="newsletter-email"
          type="email"
          aria-label="Newsletter sign-up"
          autoComplete="email"
          required
          maxLength={254}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="Enter your email"
          aria-describedby={state.status === 'error' ? 'newsletter-error' : undefined}
          className="w-full min-w-0 rounded-l-md bg-white px-4 py-2 text-gray-900"
        />
        <button type="submit" disabled={state.status === 'pending' || !online} className={buttonClass('primary', 'md', 'rounded-l-none')}>
          Subscribe
        </button>
      </div>
      {!online && <p role="status" className="mt-2 text-sm text-primary">You are offline. You can subscribe once your connection is back.</p>}
      {state.status === 'error' && (
        <p id="newsletter-error" role="alert" className="mt-2 text-sm text-danger-soft">
          {state.message}
        </p>
      )}
    </form>
  );
}
