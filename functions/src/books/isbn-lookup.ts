import { isCleanText, isPublicationDate, type IsbnLookup } from '@bookstore/contract';
import { HttpError } from '../lib/http-error';
import { coverFetchPolicy } from './cover-fetch';

// ISBN lookup for the book form (issue 26): Open Library's Books API
// (`/api/books?bibkeys=ISBN:<13>&jscmd=data&format=json`), answered as the form's fields. Answers
// are kept per instance (a day when found, an hour when not), and each staff member may send 20
// lookups a minute to Open Library (cached answers are free): the form asks once per ISBN typed,
// and Open Library asks its API users to be light. Production always asks https://openlibrary.org;
// the emulators may be pointed at a fixture server with OPEN_LIBRARY_ORIGIN (the tests do).

export const OPEN_LIBRARY = 'https://openlibrary.org';
const TIMEOUT_MS = 5_000;
const FOUND_TTL_MS = 24 * 60 * 60 * 1000;
const NOT_FOUND_TTL_MS = 60 * 60 * 1000;
const CACHE_ENTRIES = 1_000;
export const LOOKUPS_PER_MINUTE = 20;

/** Where lookups go: Open Library, or on the emulators only, OPEN_LIBRARY_ORIGIN. */
export function openLibraryOrigin(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OPEN_LIBRARY_ORIGIN && coverFetchPolicy(env).local) return new URL(env.OPEN_LIBRARY_ORIGIN).origin;
  return OPEN_LIBRARY;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Open Library's `publish_date` is free text ('1979', 'September 1998', 'March 1, 2001',
 * '2001-03-01', '1 Mar 2001'): as YYYY, YYYY-MM or YYYY-MM-DD, as precise as it says; undefined if
 * it names no year.
 */
export function publishedOnFrom(text: string): string | undefined {
  const date = readDate(text.trim());
  if (!date) return undefined;
  return isPublicationDate(date) ? date : isPublicationDate(date.slice(0, 4)) ? date.slice(0, 4) : undefined;
}

function readDate(value: string): string | undefined {
  const iso = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (iso) return value;
  const year = /(?<!\d)(1[4-9]\d\d|20\d\d)(?!\d)/.exec(value)?.[1];
  if (!year) return undefined;
  const monthIndex = MONTHS.findIndex((m) => new RegExp(`\\b${m}[a-z]*\\.?\\b`, 'i').test(value));
  if (monthIndex < 0) return year;
  const month = String(monthIndex + 1).padStart(2, '0');
  const day = /\b([0-3]?\d)(?:st|nd|rd|th)?\b(?!\d)/.exec(value.replace(year, ''))?.[1];
  return day && Number(day) >= 1 && Number(day) <= 31 ? `${year}-${month}-${day.padStart(2, '0')}` : `${year}-${month}`;
}

/** Clean single-line text of at most `max` characters, or undefined. */
function clean(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  if (!text || !isCleanText(text)) return undefined;
  return text.length > max ? text.slice(0, max).trimEnd() : text;
}

interface OpenLibraryEdition {
  title?: unknown;
  subtitle?: unknown;
  authors?: { name?: unknown }[];
  publishers?: { name?: unknown }[];
  publish_date?: unknown;
  number_of_pages?: unknown;
  cover?: { small?: unknown; medium?: unknown; large?: unknown };
}

/** The form's fields from Open Library's `jscmd=data` answer; null when it does not know the ISBN. */
export function fromOpenLibrary(isbn: string, body: unknown): IsbnLookup | null {
  if (typeof body !== 'object' || body === null) return null;
  const edition = (body as Record<string, OpenLibraryEdition | undefined>)[`ISBN:${isbn}`];
  if (!edition || typeof edition !== 'object') return null;
  const title = clean(edition.title, 200);
  const subtitle = clean(edition.subtitle, 200);
  const authors = Array.isArray(edition.authors) ? edition.authors.map((a) => clean(a?.name, 120)).filter(Boolean) : [];
  const publisher = Array.isArray(edition.publishers) ? clean(edition.publishers[0]?.name, 120) : undefined;
  const date = typeof edition.publish_date === 'string' ? publishedOnFrom(edition.publish_date) : undefined;
  const pages = typeof edition.number_of_pages === 'number' && Number.isInteger(edition.number_of_pages) && edition.number_of_pages > 0 ? edition.number_of_pages : undefined;
  const cover = [edition.cover?.large, edition.cover?.medium].find((u): u is string => typeof u === 'string' && /^https?:\/\//.test(u));
  return {
    isbn,
    ...(title ? { title } : {}),
    ...(subtitle ? { subtitle } : {}),
    ...(authors.length ? { author: authors.join(', ').slice(0, 120) } : {}),
    ...(publisher ? { publisher } : {}),
    ...(date ? { publishedOn: date } : {}),
    ...(pages ? { pages } : {}),
    // Open Library's cover addresses are http:// in older answers: the same host serves https.
    ...(cover ? { coverUrl: cover.replace(/^http:\/\/covers\.openlibrary\.org\//, 'https://covers.openlibrary.org/') } : {}),
    source: 'Open Library',
  };
}

const cache = new Map<string, { value: IsbnLookup | null; expires: number }>();
const recent = new Map<string, number[]>(); // staff username -> times of their lookups sent upstream

function remember(isbn: string, value: IsbnLookup | null, now: number): void {
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!); // the oldest
  cache.set(isbn, { value, expires: now + (value ? FOUND_TTL_MS : NOT_FOUND_TTL_MS) });
}

function takeSlot(who: string, now: number): void {
  const times = (recent.get(who) ?? []).filter((t) => now - t < 60_000);
  if (times.length >= LOOKUPS_PER_MINUTE) {
    const retry = Math.ceil((60_000 - (now - times[0]!)) / 1000);
    throw new HttpError(429, `At most ${LOOKUPS_PER_MINUTE} ISBN lookups a minute: try again in ${retry} s`, {}, { 'Retry-After': String(retry) });
  }
  times.push(now);
  recent.set(who, times);
}

/** For tests in one process: forget cached answers and counted lookups. */
export function resetIsbnLookups(): void {
  cache.clear();
  recent.clear();
}

const unreachable = () =>
  new HttpError(503, 'Open Library cannot be reached right now: fill in the details by hand, or try again later', { code: 'LOOKUP_UNAVAILABLE' }, { 'Retry-After': '60' });

/** What Open Library knows of an ISBN-13: the answer, or null (unknown); throws 429 or 503. */
export async function lookupIsbn(isbn: string, who: string, now = Date.now()): Promise<{ value: IsbnLookup | null; cached: boolean }> {
  const hit = cache.get(isbn);
  if (hit && hit.expires > now) return { value: hit.value, cached: true };
  takeSlot(who, now);
  const url = `${openLibraryOrigin()}/api/books?bibkeys=ISBN:${isbn}&jscmd=data&format=json`;
  let body: unknown;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { Accept: 'application/json', 'User-Agent': 'Bookstore/1.0 (ISBN lookup for a shop\'s book form)' }, redirect: 'error' });
    if (!res.ok) throw new Error(`Open Library answered ${res.status}`);
    body = await res.json();
  } catch (error) {
    console.warn('ISBN lookup failed', { isbn, error: error instanceof Error ? error.message : String(error) });
    throw unreachable();
  }
  const value = fromOpenLibrary(isbn, body);
  remember(isbn, value, now);
  return { value, cached: false };
}
