import { longUtcDate, SHOP_LOCALE } from './shop-zone';

// An edition's publication date (issue 26) is a calendar date, not an instant: YYYY, YYYY-MM or
// YYYY-MM-DD, shown as precisely as it was given, read in UTC so no zone moves it a day. Apart from
// locale.ts: the storefront's cards show a pre-order's date on the first load (issue 41).

let monthYearFormat: Intl.DateTimeFormat | undefined;
let dayFormat: Intl.DateTimeFormat | undefined;

/** '2019' | 'April 2019' | 'April 2, 2019' in the shop's locale; the text itself if it is not such a date. */
export function formatPublicationDate(value: string): string {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!m) return value;
  if (!m[2]) return m[1]!;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, m[3] ? Number(m[3]) : 1));
  const fast = longUtcDate(date, !!m[3]);
  if (fast) return fast;
  const format = m[3]
    ? (dayFormat ??= new Intl.DateTimeFormat(SHOP_LOCALE, { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' }))
    : (monthYearFormat ??= new Intl.DateTimeFormat(SHOP_LOCALE, { timeZone: 'UTC', year: 'numeric', month: 'long' }));
  return format.format(date);
}
