import { useState } from 'react';
import { fieldClass } from '../../../components/ui/button';

// A gift card and a discount code at the till (issue 57). The shop applies both in the sale's own
// transaction, on the web's rules: the discount comes off the books, then the gift card pays first
// (up to its balance) and the rest is taken by cash or the card reader ('Gift Card Only': the card
// must cover it all). Both need the shop's answer, so they are online only; the till shows what the
// shop took once the sale is made (its receipt).

export interface TillCodes {
  discountCode: string;
  setDiscountCode: (value: string) => void;
  giftCardCode: string;
  setGiftCardCode: (value: string) => void;
  clear: () => void;
}

export function useTillCodes(): TillCodes {
  const [discountCode, setDiscountCode] = useState('');
  const [giftCardCode, setGiftCardCode] = useState('');
  return { discountCode, setDiscountCode, giftCardCode, setGiftCardCode, clear: () => { setDiscountCode(''); setGiftCardCode(''); } };
}

/** The codes as the sale's body carries them (absent when empty). */
export function codesOfSale(codes: Pick<TillCodes, 'discountCode' | 'giftCardCode'>): { discountCode?: string; giftCardCode?: string } {
  const discount = codes.discountCode.trim();
  const card = codes.giftCardCode.trim();
  return { ...(discount ? { discountCode: discount } : {}), ...(card ? { giftCardCode: card } : {}) };
}

export function TillCodesFields({ codes, online }: { codes: TillCodes; online: boolean }) {
  return (
    <fieldset className="space-y-3">
      <legend className="mb-2 font-semibold text-gray-900">Gift card or discount code <span className="text-sm font-normal text-gray-600">(optional)</span></legend>
      <div>
        <label htmlFor="till-discount-code" className="mb-1 block text-sm font-semibold text-gray-700">Discount code</label>
        <input id="till-discount-code" value={codes.discountCode} onChange={(e) => codes.setDiscountCode(e.target.value)} disabled={!online} autoComplete="off" autoCapitalize="characters" spellCheck={false} className={fieldClass} />
      </div>
      <div>
        <label htmlFor="till-gift-card-code" className="mb-1 block text-sm font-semibold text-gray-700">Gift card code</label>
        <input id="till-gift-card-code" value={codes.giftCardCode} onChange={(e) => codes.setGiftCardCode(e.target.value)} disabled={!online} autoComplete="off" autoCapitalize="characters" spellCheck={false} className={fieldClass} aria-describedby="till-codes-note" />
      </div>
      <p id="till-codes-note" className="text-xs text-gray-600">
        {online ? 'The card pays first, up to its balance; the rest by cash or the card reader.' : 'Offline: gift cards and discount codes need the connection to the shop.'}
      </p>
    </fieldset>
  );
}
