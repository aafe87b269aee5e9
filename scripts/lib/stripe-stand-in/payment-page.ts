// The stand-in's hosted payment page: what Stripe Checkout's page does for the shop's tests and the
// local demo (a card number field, 'Pay', a decline shown on the page while the session stays open),
// and nothing else. Plain HTML, no script: the form posts back to the stand-in.

export interface PageView {
  amount: number;
  currency: string;
  lines: { name: string; amount: number; quantity: number }[];
  email: string | null;
  cancelUrl: string | null;
  action: string;
  error?: string;
}

export type PageState = ({ kind: 'form' } & PageView) | { kind: 'gone'; message: string; back?: string | null };

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const money = (cents: number, currency: string) => `${currency === 'usd' ? '$' : `${currency.toUpperCase()} `}${(cents / 100).toFixed(2)}`;

const STYLE = `
  body{font-family:system-ui,sans-serif;margin:0;background:#f6f9fc;color:#1a1f36}
  main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}
  .test{background:#ffde92;color:#5a3e00;font-size:.8rem;font-weight:600;padding:.25rem .5rem;border-radius:.25rem;display:inline-block}
  h1{font-size:1.25rem;margin:.75rem 0 .25rem}
  .total{font-size:2rem;font-weight:700;margin:0 0 1rem}
  ul{list-style:none;padding:0;margin:0 0 1.5rem;border-top:1px solid #e3e8ee}
  li{display:flex;justify-content:space-between;gap:1rem;padding:.5rem 0;border-bottom:1px solid #e3e8ee}
  label{display:block;font-weight:600;margin-bottom:.25rem}
  input{box-sizing:border-box;width:100%;font-size:1.1rem;padding:.65rem;border:1px solid #a3acb9;border-radius:.375rem}
  button{margin-top:1rem;width:100%;font-size:1.1rem;font-weight:600;padding:.75rem;border:0;border-radius:.375rem;background:#0d0842;color:#fff}
  [role=alert]{color:#b3093c;font-weight:600;margin:.75rem 0 0}
  .hint{color:#4f566b;font-size:.85rem}
  a{color:#0d0842}
`;

export function paymentPage(state: PageState): string {
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Pay - Stripe stand-in</title><style>${STYLE}</style></head><body><main>`;
  const foot = '</main></body></html>';
  if (state.kind === 'gone') {
    return `${head}<span class="test">TEST MODE</span><h1>${escape(state.message)}</h1>${state.back ? `<p><a href="${escape(state.back)}">Back to the shop</a></p>` : ''}${foot}`;
  }
  const lines = state.lines.map((l) => `<li><span>${escape(l.name)}${l.quantity > 1 ? ` x ${l.quantity}` : ''}</span><span>${money(l.amount * l.quantity, state.currency)}</span></li>`).join('');
  return `${head}
<span class="test">TEST MODE</span>
${state.cancelUrl ? `<p><a href="${escape(state.cancelUrl)}">&larr; Back to the shop</a></p>` : ''}
<h1>Pay the Bookstore</h1>
<p class="total" data-testid="pay-total">${money(state.amount, state.currency)}</p>
<ul aria-label="What you pay for">${lines}</ul>
<form method="post" action="${escape(state.action)}">
  ${state.email ? `<p class="hint">Receipt to ${escape(state.email)}</p>` : ''}
  <label for="card">Card number</label>
  <input id="card" name="card" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required aria-describedby="cards${state.error ? ' card-error' : ''}">
  ${state.error ? `<p role="alert" id="card-error">${escape(state.error)}</p>` : ''}
  <p class="hint" id="cards">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</p>
  <button type="submit">Pay</button>
</form>
${foot}`;
}
