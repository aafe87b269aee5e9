import { pageClass, pageTitle } from '../../components/ui/page';
import { textLink } from '../../components/ui/button';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useConfirmNewsletter } from '../../features/subscriptions/subscriptions-api';
import { usePageTitle } from '../../lib/use-page-title';

// /newsletter/confirm?token= : the link in the confirmation mail (issue 28). Opening it confirms the
// subscription (POST /api/newsletter/confirm); a stale or broken link says so.
export function Component() {
  usePageTitle('Newsletter');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmNewsletter();
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current || !token) return;
    sent.current = true;
    confirm.mutate(token);
  }, [token, confirm]);
  return (
    <section className={`${pageClass} max-w-xl`}>
      <h1 className={`mb-4 ${pageTitle}`}>Newsletter Subscription</h1>
      {!token ? (
        <p role="alert" className="text-danger">This link is not valid or has expired.</p>
      ) : confirm.isSuccess ? (
        <p role="status" className="text-secondary">{confirm.data.message}</p>
      ) : confirm.isError ? (
        <p role="alert" className="text-danger">{confirm.error.message}</p>
      ) : (
        <p role="status">Confirming your subscription...</p>
      )}
      <Link to="/" className={`mt-8 inline-block ${textLink}`}>Back to the shop</Link>
    </section>
  );
}
