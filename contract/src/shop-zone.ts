// The shop's one time zone and locale (locale.ts says why there is one). Their own module: the
// storefront's first load needs them (pre-orders, publication dates) without the rest of locale.ts,
// which a bundle would otherwise carry whole into its entry chunk.
export const SHOP_TIME_ZONE = 'UTC';
export const SHOP_LOCALE = 'en-US';

let dayParts: Intl.DateTimeFormat | undefined;
/**
 * The shop's calendar day of an instant, YYYY-MM-DD. In UTC it is the ISO string's date: building an
 * Intl formatter costs a phone about 100 ms (its locale's and zone's data), and the storefront asks
 * for today while it starts (pre-orders, issue 60). Another zone builds one formatter, on first use.
 */
export function dayInShopZone(at: Date): string {
  if (SHOP_TIME_ZONE === 'UTC') return at.toISOString().slice(0, 10);
  // en-CA writes a date as YYYY-MM-DD.
  dayParts ??= new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
  const parts = Object.fromEntries(dayParts.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const EN_US_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * 'January 1, 2026' ('long' month, numeric day and year) of a UTC date, or 'January 2026' without the
 * day, as Intl.DateTimeFormat writes them in en-US, without building one: the book page shows a
 * date as it hydrates, and the formatter's first build took 142 ms of a 4x-throttled phone's main
 * thread there (profiled, issue 60). null in another locale, or a year Intl writes otherwise (BC):
 * the caller builds the formatter. locale.test.ts compares both over many dates.
 */
export function longUtcDate(at: Date, withDay = true): string | null {
  const year = at.getUTCFullYear();
  if (SHOP_LOCALE !== 'en-US' || !(year >= 1 && year <= 9999)) return null;
  const month = EN_US_MONTHS[at.getUTCMonth()]!;
  return withDay ? `${month} ${at.getUTCDate()}, ${year}` : `${month} ${year}`;
}

/**
 * '12,345' (a whole number as Intl.NumberFormat writes it in en-US) without building one: the book
 * page shows its page count as it hydrates, and the formatter's first build took about 54 ms of a
 * 4x-throttled phone's main thread there, the page's longest task after the entry (profiled, issue
 * 60). null in another locale, or for a number that is not a safe integer: the caller uses Intl.
 */
export function groupedInteger(n: number): string | null {
  if (SHOP_LOCALE !== 'en-US' || !Number.isSafeInteger(n) || Object.is(n, -0)) return null; // Intl writes -0 as '-0'
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
