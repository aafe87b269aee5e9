import type { PaymentMethod, PaymentMethods } from '@bookstore/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

// How the shopper pays (issue 35): cash as always ('Cash On Delevary', the spec's heading, or at the
// counter for a pickup), or 'Pay by Card' on Stripe's payment page when the shop has card payments on.

// GET /api/checkout/payment-methods
export const paymentMethodsQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.quotes, 'payment-methods'] as const,
    queryFn: ({ signal }) => apiFetch<PaymentMethods>('/api/checkout/payment-methods', { signal }),
    staleTime: 60_000,
    retry: false,
  });

const LABELS: Record<PaymentMethod, string> = { cash: 'Cash On Delevary', card: 'Pay by Card' };

export function PaymentOptions({ methods, value, onChange, pickup, cardProblem }: { methods: PaymentMethod[]; value: PaymentMethod; onChange: (method: PaymentMethod) => void; pickup: boolean; cardProblem?: string }) {
  // Cash only (card payments off, or not known yet): nothing to choose, the page reads as before.
  if (!methods.includes('card')) return null;
  const notes: Record<PaymentMethod, string> = {
    cash: pickup ? 'Pay at the counter when you collect your books.' : 'Pay in cash when your books arrive.',
    card: 'Pay now on a secure payment page (Stripe). Your books are held for 30 minutes while you pay.',
  };
  return (
    <fieldset className="md:col-span-5">
      <legend className="font-semibold text-gray-900">Payment</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {(['cash', 'card'] as const).map((m) => (
          <div key={m} className="rounded-md border border-gray-300 p-3 has-[:checked]:border-secondary has-[:checked]:bg-accent-soft">
            <label className="flex cursor-pointer items-start gap-3">
              <input type="radio" name="payment-method" value={m} checked={value === m} onChange={() => onChange(m)} aria-describedby={`payment-${m}-note`} className="mt-1 size-4" />
              <span className="font-medium text-gray-900">{m === 'cash' && pickup ? 'Cash at the Counter' : LABELS[m]}</span>
            </label>
            {/* Issue 54: below Stripe's minimum the card cannot pay; the order would be refused (BELOW_CARD_MINIMUM). */}
            {m === 'card' && cardProblem ? (
              <p id="payment-card-note" className="ml-7 text-danger" data-testid="card-minimum">{cardProblem}</p>
            ) : (
              <p id={`payment-${m}-note`} className="ml-7 text-gray-600">{notes[m]}</p>
            )}
          </div>
        ))}
      </div>
    </fieldset>
  );
}
