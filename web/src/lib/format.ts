import { moneyLabel } from '@bookstore/contract';

// Dates in the shop's one zone and locale (contract/src/locale.ts): the server's HTML and the
// hydrated page read the same in every browser's zone.
export { CARD_DESCRIPTION_LIMIT, formatDate, formatDateTime, truncate } from '@bookstore/contract';

/** "$12.50": the contract's one money format. */
export const money = moneyLabel;
