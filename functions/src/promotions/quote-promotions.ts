import { DISCOUNT_CODE_PATTERN, DISCOUNT_UNAVAILABLE, discountVerdict, fromCents, GIFT_CARD_TYPO, giftCardCodeIsValid, normaliseGiftCardCode, type DeliveryMethod, type DeliveryPlace, type FulfilmentSettings, type Quote } from '@bookstore/contract';
import type { BookDoc } from '../books/books.repo';
import { buildQuote } from '../orders/quote';
import { discountedBooks, pricedBooks } from '../orders/orders.repo';
import { getDiscount } from './discounts.repo';
import { readGiftCard } from './gift-cards.repo';

/**
 * The quote with a discount code and/or a gift card (issue 40): priced by the same function as the
 * order, with the code's discount when it applies now, and what the card would pay and what remains
 * `due`. A code that does not apply, for whatever reason, gets one answer (`discountProblem`:
 * DISCOUNT_UNAVAILABLE, issue 55), so a quote never tells an unknown code from a paused, expired or
 * used-up one, nor names a value of a code that does not apply.
 * Whether a once-per-customer code was used already is the order's to say (a quote is anonymous).
 */
export async function promotionQuote(
  settings: FulfilmentSettings, docs: BookDoc[], method: DeliveryMethod | undefined, place: DeliveryPlace, discountCode?: string, giftCardCode?: string,
): Promise<Quote> {
  // A code that cannot be one is never looked up: a typo in a gift card's code is caught by its check symbol.
  const cardCode = giftCardCode ? normaliseGiftCardCode(giftCardCode) : undefined;
  const typo = cardCode !== undefined && !giftCardCodeIsValid(cardCode);
  const [discount, card] = await Promise.all([
    discountCode && DISCOUNT_CODE_PATTERN.test(discountCode) ? getDiscount(discountCode) : undefined,
    cardCode && !typo ? readGiftCard(cardCode) : undefined,
  ]);
  const verdict = discountCode ? discountVerdict(discount, discountedBooks(docs), new Date().toISOString()) : undefined;
  const quote = buildQuote(settings, pricedBooks(docs), method, place, verdict?.ok ? verdict.cents : 0);
  const totalCents = quote.total === null ? null : Math.round(quote.total * 100);
  let giftCard: Quote['giftCard'];
  let dueCents = totalCents;
  if (giftCardCode) {
    if (typo) giftCard = { problem: GIFT_CARD_TYPO };
    else if (!card) giftCard = { problem: 'This gift card does not exist' };
    else if (card.balanceCents <= 0) giftCard = { problem: 'This gift card has nothing left on it' };
    else {
      const pays = totalCents === null ? 0 : Math.min(card.balanceCents, totalCents);
      giftCard = { amount: fromCents(pays), balance: fromCents(card.balanceCents), last4: card.last4 };
      dueCents = totalCents === null ? null : totalCents - pays;
    }
  }
  return {
    ...quote,
    ...(verdict?.ok ? { discountApplied: { code: discountCode!, label: verdict.label } } : {}),
    ...(verdict && !verdict.ok ? { discount: 0, discountProblem: { code: discountCode!, ...DISCOUNT_UNAVAILABLE } } : {}),
    ...(giftCard ? { giftCard } : {}),
    due: dueCents === null ? null : fromCents(dueCents),
  };
}
