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
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="mb-4 text-2xl font-semibold">Newsletter subscription</h1>
      {!token ? (
        <p role="alert" className="text-red-700">This link is not valid or has expired.</p>
      ) : confirm.isSuccess ? (
        <p role="status" className="text-green-800">{confirm.data.message}</p>
      ) : confirm.isError ? (
        <p role="alert" className="text-red-700">{confirm.error.message}</p>
      ) : (
        <p role="status">Confirming your subscription...</p>
      )}
      <Link to="/" className="mt-8 inline-block font-medium text-indigo-700 underline hover:text-indigo-900">Back to the shop</Link>
    </section>
  );
}
