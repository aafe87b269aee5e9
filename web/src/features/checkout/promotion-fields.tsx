import type { Quote } from '@bookstore/contract';
import { useState, type KeyboardEvent } from 'react';
import { buttonClass } from '../../components/ui/button';
import { money } from '../../lib/format';

// The checkout's discount code and gift card (issue 40). 'Apply' asks the server's quote with the
// code (priced by the same function as the order); the quote says what it takes off, or why not.
// Only what the quote accepted is sent with the order.

const INPUT = 'h-10 min-w-0 flex-1 rounded-md border border-gray-300 bg-gray-50 px-4 focus:bg-white focus:outline-2 focus:outline-accent';

interface FieldProps {
  id: string;
  label: string;
  applyName: string;
  applied: string | undefined;
  onApply: (code: string | undefined) => void;
  /** What the quote said of the applied code: accepted (a line to show) or why not; neither while it is asked. */
  accepted?: string;
  problem?: string;
  placeholder: string;
  /** Said from the tap on Apply until the quote answers. */
  checking: string;
}

function CodeField({ id, label, applyName, applied, onApply, accepted: answeredYes, problem: answeredNo, placeholder, checking }: FieldProps) {
  const [typed, setTyped] = useState(applied ?? '');
  // While a new address is priced there is no answer: the last one for this same code stays, and a
  // new code says it is being checked, so the line never blinks out and back (moving what is below).
  const [last, setLast] = useState<{ applied?: string; accepted?: string; problem?: string }>({});
  const answered = answeredYes !== undefined || answeredNo !== undefined;
  if (answered && (last.applied !== applied || last.accepted !== answeredYes || last.problem !== answeredNo)) setLast({ applied, accepted: answeredYes, problem: answeredNo });
  const kept = !answered && applied !== undefined && last.applied === applied;
  const accepted = kept ? last.accepted : answeredYes;
  const problem = kept ? last.problem : answeredNo;
  const apply = () => onApply(typed.trim() ? typed.trim() : undefined);
  // Enter applies the code, never submits the order.
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      apply();
    }
  };
  return (
    <div className="md:col-span-5">
      <label htmlFor={id}>{label}</label>
      <div className="mt-1 flex gap-2">
        <input id={id} name={id} value={typed} onChange={(e) => setTyped(e.target.value)} onKeyDown={onKey} autoComplete="off" spellCheck={false} placeholder={placeholder} aria-describedby={`${id}-status`} className={INPUT} />
        <button type="button" onClick={apply} aria-label={applyName === 'Apply' ? undefined : applyName} className={buttonClass('secondary', 'md', 'shrink-0')}>Apply</button>
      </div>
      <p id={`${id}-status`} role="status" className={`mt-1 empty:hidden ${problem ? 'text-danger' : 'text-secondary'}`} data-testid={`${id}-status`}>
        {applied ? (problem ?? accepted ?? checking) : ''}
        {applied && (accepted || problem) ? (
          <>
            {' '}
            <button type="button" className="font-semibold underline" onClick={() => { setTyped(''); onApply(undefined); }}>Remove</button>
          </>
        ) : null}
      </p>
    </div>
  );
}

export interface Promotions {
  discountCode?: string;
  giftCardCode?: string;
}

export function PromotionFields({ value, onChange, quote }: { value: Promotions; onChange: (next: Promotions) => void; quote: Quote | undefined }) {
  const card = quote?.giftCard;
  return (
    <>
      <CodeField
        id="discount-code" label="Discount code" applyName="Apply" placeholder="SPRING10" checking="Checking the code..." applied={value.discountCode}
        onApply={(discountCode) => onChange({ ...value, discountCode })}
        accepted={quote?.discountApplied ? `${quote.discountApplied.code}: ${quote.discountApplied.label} (${money(quote.discount ?? 0)} off your books)` : undefined}
        problem={quote?.discountProblem?.reason}
      />
      <CodeField
        id="gift-card" label="Gift card" applyName="Apply gift card" placeholder="XXXX-XXXX-XXXX-XXXX" checking="Checking the gift card..." applied={value.giftCardCode}
        onApply={(giftCardCode) => onChange({ ...value, giftCardCode })}
        accepted={card && 'amount' in card ? `Gift card ending ${card.last4} pays ${money(card.amount)} (balance ${money(card.balance)})` : undefined}
        problem={card && 'problem' in card ? card.problem : undefined}
      />
    </>
  );
}

/** What the order sends: only what the quote accepted. */
export function acceptedPromotions(value: Promotions, quote: Quote | undefined): Promotions {
  return {
    ...(value.discountCode && quote?.discountApplied ? { discountCode: value.discountCode } : {}),
    ...(value.giftCardCode && quote?.giftCard && 'amount' in quote.giftCard ? { giftCardCode: value.giftCardCode } : {}),
  };
}
