import { fromCents, GIFT_CARD_LINE_TITLE } from '@bookstore/contract';
import { useState, type FormEvent } from 'react';
import { buttonClass, fieldClass, textLink } from '../../../components/ui/button';
import { money } from '../../../lib/format';
import { centsOf, type Line } from './counter-lines';

/** The sale's lines, each with its quantity and Remove; then a gift card of an amount typed. */
export function SaleLinesList({ lines, onQuantity, onGiftCard }: {
  lines: Line[]; onQuantity: (id: string, quantity: number) => void; onGiftCard: (amount: string) => boolean;
}) {
  const [cardAmount, setCardAmount] = useState('');
  const addGiftCard = (event: FormEvent) => {
    event.preventDefault();
    if (onGiftCard(cardAmount)) setCardAmount('');
  };
  return (
    <>
      {lines.length === 0 ? (
        <p className="text-sm text-gray-600">No books yet: scan a barcode or type an ISBN and press Enter.</p>
      ) : (
        <ul aria-label="Books in this sale" className="divide-y divide-gray-100">
          {lines.map((line) => line.kind === 'gift_card' ? (
            <li key={line.key} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
              <div className="min-w-0 flex-1 basis-48">
                <p className="font-semibold">{GIFT_CARD_LINE_TITLE}</p>
                <p className="text-sm text-gray-600">The shop makes its code; it prints on the receipt</p>
              </div>
              <p className="w-28 text-right font-semibold tabular-nums">{money(line.unitPrice)}</p>
              <button type="button" onClick={() => onQuantity(line.key, 0)} className={`${textLink} text-sm`} aria-label={`Remove gift card of ${money(line.unitPrice)}`}>Remove</button>
            </li>
          ) : (
            <li key={line.bookId} className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3">
              <div className="min-w-0 flex-1 basis-48">
                <p className="font-semibold">{line.title}</p>
                <p className="text-sm text-gray-600">{line.author ? `${line.author} · ` : ''}ISBN {line.isbn}</p>
              </div>
              <div className="flex items-center gap-2" role="group" aria-label={`Quantity of ${line.title}`}>
                <button type="button" aria-label={`One less of ${line.title}`} onClick={() => onQuantity(line.bookId, line.quantity - 1)} className={buttonClass('secondary', 'sm', 'size-9 px-0')}>−</button>
                <span className="w-8 text-center font-semibold tabular-nums" data-testid="quantity">{line.quantity}</span>
                <button type="button" aria-label={`One more of ${line.title}`} onClick={() => onQuantity(line.bookId, line.quantity + 1)} className={buttonClass('secondary', 'sm', 'size-9 px-0')}>+</button>
              </div>
              <div className="w-28 text-right">
                <p className="font-semibold tabular-nums">{money(fromCents(line.quantity * centsOf(line.unitPrice)))}</p>
                <p className="text-xs text-gray-600 tabular-nums">{money(line.unitPrice)} each</p>
              </div>
              <button type="button" onClick={() => onQuantity(line.bookId, 0)} className={`${textLink} text-sm`} aria-label={`Remove ${line.title}`}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={addGiftCard} className="flex items-end gap-2 border-t border-gray-100 pt-4">
        <div className="min-w-0 flex-1">
          <label htmlFor="gift-card-amount" className="mb-1 block text-sm font-semibold text-gray-700">Gift card <span className="font-normal text-gray-600">(amount)</span></label>
          <input id="gift-card-amount" value={cardAmount} onChange={(e) => setCardAmount(e.target.value)} inputMode="decimal" autoComplete="off" placeholder="25.00" className={fieldClass} />
        </div>
        <button type="submit" className={buttonClass('secondary', 'md', 'h-11')}>Add Gift Card</button>
      </form>
    </>
  );
}
