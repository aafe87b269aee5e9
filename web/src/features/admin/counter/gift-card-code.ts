import { formatGiftCardCode, makeGiftCardCode } from '@bookstore/contract';

/**
 * A new gift card code, made on this device like a sale's id (issue 40): the counter sends it with
 * the sale (or the return given as store credit), so a sale sent again names the same card and the
 * receipt can print the code even while the shop cannot be reached. 75 random bits and a check symbol.
 */
export function newGiftCardCode(): string {
  return formatGiftCardCode(makeGiftCardCode(crypto.getRandomValues(new Uint8Array(15))));
}
