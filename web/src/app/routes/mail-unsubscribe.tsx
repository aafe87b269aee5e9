import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useUnsubscribe } from '../../features/subscriptions/subscriptions-api';
import { useOnline } from '../../lib/use-online';
import { usePageTitle } from '../../lib/use-page-title';

// /newsletter/unsubscribe?token= and /stock-alerts/unsubscribe?token= : the links in our mail
// (issue 28). A button, not a page load, unsubscribes: mail scanners open links, they do not press buttons.
export function Component() {
  const alerts = useLocation().pathname.startsWith('/stock-alerts');
  usePageTitle(alerts ? 'Back-in-stock emails' : 'Newsletter');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useUnsubscribe();
  const online = useOnline();
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <h1 className="mb-4 text-2xl font-semibold">{alerts ? 'Stop back-in-stock emails' : 'Unsubscribe from the newsletter'}</h1>
      {!token ? (
        <p role="alert" className="text-red-700">This link is not valid or has expired.</p>
      ) : unsubscribe.isSuccess ? (
        <p role="status" className="text-green-800">{unsubscribe.data.message}</p>
      ) : (
        <>
          <p className="mb-6 text-gray-700">
            {alerts ? 'We will send no more back-in-stock emails to your address.' : 'We will remove your address from our newsletter.'}
          </p>
          <button
            type="button"
            onClick={() => unsubscribe.mutate(token)}
            disabled={unsubscribe.isPending || !online}
            className="rounded-md bg-secondary px-6 py-2 font-semibold text-white hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-60"
          >
            Unsubscribe
          </button>
          {unsubscribe.isError && <p role="alert" className="mt-4 text-red-700">{unsubscribe.error.message}</p>}
        </>
      )}
      <div>
        <Link to="/" className="mt-8 inline-block font-medium text-indigo-700 underline hover:text-indigo-900">Back to the shop</Link>
      </div>
    </section>
  );
}
