// The shop's one time zone and locale. Every date and number the storefront shows is formatted with
// these, on the server (the pages function, the build's prerender) and in the browser alike, so the
// HTML as served and the page React hydrates read the same in any visitor's time zone: a book created
// at 01:00 UTC is "January 1" for everyone, not January 1 on the server and December 31 in Honolulu.
// Change them here for a shop elsewhere (an IANA zone name and a BCP 47 locale).

import { dayInShopZone, groupedInteger, longUtcDate, SHOP_LOCALE, SHOP_TIME_ZONE } from './shop-zone';

export { SHOP_LOCALE, SHOP_TIME_ZONE };
export { formatPublicationDate } from './publication-date';

/**
 * A formatter made on first use: each Intl formatter costs milliseconds to build (its locale and zone
 * data), and a page built them all as its module loaded, in the app's start-up task (issue 38).
 */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const dateFormat = lazy(() => new Intl.DateTimeFormat(SHOP_LOCALE, { timeZone: SHOP_TIME_ZONE, year: 'numeric', month: 'long', day: 'numeric' }));
const dateTimeFormat = lazy(() => new Intl.DateTimeFormat(SHOP_LOCALE, {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
}));
const countFormat = lazy(() => new Intl.NumberFormat(SHOP_LOCALE));

const valid = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The shop's calendar day (YYYY-MM-DD in SHOP_TIME_ZONE) of an instant: the day a counter sale's takings count in. */
export function shopDay(at: string | Date): string {
  return dayInShopZone(typeof at === 'string' ? new Date(at) : at);
}

/** 'January 1, 2026' in the shop's zone; '' for a value that is not a date. */
export function formatDate(iso: string): string {
  const date = valid(iso);
  if (!date) return '';
  return (SHOP_TIME_ZONE === 'UTC' ? longUtcDate(date) : null) ?? dateFormat().format(date);
}

/** 'Nov 22, 2026, 1:05 AM' in the shop's zone, for an order's timeline; '' for a value that is not a date. */
export function formatDateTime(iso: string): string {
  const date = valid(iso);
  return date ? dateTimeFormat().format(date) : '';
}

/** '12,345' in the shop's locale. */
export function formatCount(n: number): string {
  return groupedInteger(n) ?? countFormat().format(n);
}

/**
 * The languages a shop's books are mostly in, named as Intl.DisplayNames names them in en-US: the book
 * page names its book's language as it hydrates, and the first Intl object a page builds costs a
 * 4x-throttled phone about 54 ms (ICU's data; profiled, issue 60). locale.test.ts checks each name
 * against Intl; any other tag, or another locale, asks Intl.
 */
const EN_US_LANGUAGES: Record<string, string> = {
  en: 'English', 'en-GB': 'British English', 'en-US': 'American English', fr: 'French', de: 'German', es: 'Spanish',
  it: 'Italian', pt: 'Portuguese', nl: 'Dutch', sv: 'Swedish', da: 'Danish', no: 'Norwegian', fi: 'Finnish',
  pl: 'Polish', ru: 'Russian', ja: 'Japanese', zh: 'Chinese', ko: 'Korean', ar: 'Arabic', he: 'Hebrew',
  el: 'Greek', tr: 'Turkish', cy: 'Welsh', ga: 'Irish', la: 'Latin', hi: 'Hindi',
};
export const KNOWN_LANGUAGE_TAGS = Object.keys(EN_US_LANGUAGES);

/** 'English', 'British English', 'French' for a BCP 47 tag, in the shop's locale; the tag itself if unknown. */
export function formatLanguage(tag: string): string {
  const known = SHOP_LOCALE === 'en-US' ? EN_US_LANGUAGES[tag] : undefined;
  if (known) return known;
  try {
    return new Intl.DisplayNames([SHOP_LOCALE], { type: 'language', fallback: 'code' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** A book's format (issue 26) and its label on the book page: here, beside the other details' formatters, without zod. */
export const BOOK_FORMATS = ['hardcover', 'paperback', 'ebook', 'audiobook'] as const;
export type BookFormat = (typeof BOOK_FORMATS)[number];
export const BOOK_FORMAT_LABELS: Record<BookFormat, string> = { hardcover: 'Hardcover', paperback: 'Paperback', ebook: 'E-book', audiobook: 'Audiobook' };
