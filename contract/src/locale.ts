// The shop's one time zone and locale. Every date and number the storefront shows is formatted with
// these, on the server (the pages function, the build's prerender) and in the browser alike, so the
// HTML as served and the page React hydrates read the same in any visitor's time zone: a book created
// at 01:00 UTC is "January 1" for everyone, not January 1 on the server and December 31 in Honolulu.
// Change them here for a shop elsewhere (an IANA zone name and a BCP 47 locale).

export const SHOP_TIME_ZONE = 'UTC';
export const SHOP_LOCALE = 'en-US';

const dateFormat = new Intl.DateTimeFormat(SHOP_LOCALE, { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: 'long', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat(SHOP_LOCALE, {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const countFormat = new Intl.NumberFormat(SHOP_LOCALE);

const valid = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** 'January 1, 2026' in the shop's zone; '' for a value that is not a date. */
export function formatDate(iso: string): string {
  const date = valid(iso);
  return date ? dateFormat.format(date) : '';
}

/** 'Nov 22, 2026, 1:05 AM' in the shop's zone, for an order's timeline; '' for a value that is not a date. */
export function formatDateTime(iso: string): string {
  const date = valid(iso);
  return date ? dateTimeFormat.format(date) : '';
}

/** '12,345' in the shop's locale. */
export function formatCount(n: number): string {
  return countFormat.format(n);
}
