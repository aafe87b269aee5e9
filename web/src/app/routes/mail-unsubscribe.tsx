import { pageClass, pageTitle } from '../../components/ui/page';
import { buttonClass, textLink } from '../../components/ui/button';
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
    <section className={`${pageClass} max-w-xl`}>
      <h1 className={`mb-4 ${pageTitle}`}>{alerts ? 'Stop back-in-stock emails' : 'Unsubscribe from the newsletter'}</h1>
      {!token ? (
        <p role="alert" className="text-danger">This link is not valid or has expired.</p>
      ) : unsubscribe.isSuccess ? (
        <p role="status" className="text-secondary">{unsubscribe.data.message}</p>
      ) : (
        <>
          <p className="mb-6 text-gray-700">
            {alerts ? 'We will send no more back-in-stock emails to your address.' : 'We will remove your address from our newsletter.'}
          </p>
          <button
            type="button"
            onClick={() => unsubscribe.mutate(token)}
            disabled={unsubscribe.isPending || !online}
            className={buttonClass('primary', 'md')}
          >
            Unsubscribe
          </button>
          {unsubscribe.isError && <p role="alert" className="mt-4 text-danger">{unsubscribe.error.message}</p>}
        </>
      )}
      <div>
        <Link to="/" className={`mt-8 inline-block ${textLink}`}>Back to the shop</Link>
      </div>
    </section>
  );
}
