import { routerOf } from '../lib/routes';
import { reserveGiftCardCodes } from '../sales/sales.handlers';
import * as handlers from './promotions.handlers';

/**
 * Mounted at /api/admin (issue 40). Writes that create value (a discount code made or changed, a
 * gift card issued or voided) need a recent proof, checked in their handlers (issue 55).
 */
export const promotionsAdminRouter = routerOf({
  '/discounts': { get: handlers.listDiscounts, post: handlers.createDiscount },
  '/discounts/:code': { patch: handlers.patchDiscount },
  '/discounts/:code/redemptions': { get: handlers.listRedemptions },
  '/gift-cards': { get: handlers.listGiftCards, post: handlers.issueGiftCard },
  // Issue 55: codes a till may sell offline (any role of the counter: sales.counter).
  '/gift-cards/reserve': { post: reserveGiftCardCodes },
  '/gift-cards/:id': { get: handlers.giftCardDetail },
  '/gift-cards/:id/void': { post: handlers.voidGiftCard },
});

/** Mounted at /api/gift-cards. */
export const giftCardsRouter = routerOf({
  '/balance': { post: handlers.giftCardBalance },
});
