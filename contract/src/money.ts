// Money travels as dollars (at most 2 decimals) and is computed in integer cents,
// so 0.1 + 0.2 never becomes 0.30000000000000004 on a receipt.

export const MAX_PRICE_CENTS = 1_000_000; // $10,000 per book
/** The same limit in dollars, as forms and messages show it. */
export const MAX_PRICE_DOLLARS = MAX_PRICE_CENTS / 100;

/** Cents of a dollar amount, or null when it is not finite or has more than 2 decimals. */
export function toCents(dollars: number): number | null {
  if (!Number.isFinite(dollars)) return null;
  const cents = Math.round(dollars * 100);
  // Allow for binary representation error (19.99 * 100 = 1998.9999999999998), nothing more.
  if (Math.abs(dollars * 100 - cents) > 1e-6) return null;
  return cents;
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** "12.50" style, for display and for the spec's string totalPrice. */
export function formatCents(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A dollar amount as the wire and the receipts write it: "12.50" (rounded to the cent). */
export function formatDollars(dollars: number): string {
  return formatCents(Math.round(dollars * 100));
}

/** "$12.50": every price, total and revenue figure the shop shows. */
export function moneyLabel(dollars: number): string {
  return `$${formatDollars(dollars)}`;
}

export function sumCents(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

const MONEY_STRING = /^\d{1,9}(\.\d{1,2})?$/;
// A request's number, written back the shortest way JavaScript can (String(20.000000001) is
// '20.000000001'): exactly what the client sent, so 20.000000001 is refused, not read as 20.00.
const MONEY_NUMBER = /^-?\d{1,16}(\.\d{1,2})?$/;

/**
 * Parses a request amount: a number, or a numeric string such as "12.5" (what the spec's client
 * sends), with at most 2 decimals exactly. Negative numbers pass, for the caller's range message.
 */
export function parseMoneyInput(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && MONEY_NUMBER.test(String(value)) ? value : null;
  if (typeof value === 'string' && MONEY_STRING.test(value.trim())) return Number(value.trim());
  return null;
}
