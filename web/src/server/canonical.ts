import { CATEGORIES } from '@bookstore/contract';
import { parseBrowseParams, toBrowseSearch } from '../features/catalog/browse/browse-params';

// One URL per page: the pages function answers any other spelling of a served URL with a redirect
// to this one, so no query string (utm_source, a cache buster, ?v=2) makes a new CDN entry that
// costs Firestore reads. The browser builds the same URLs (browse-params.ts), so it never redirects.

/** The canonical path and query of a served storefront URL, from its path and query string. */
export function canonicalPath(path: string, search: string): string {
  if (path === '/books') return `/books${toBrowseSearch(parseBrowseParams(new URLSearchParams(search), CATEGORIES))}`;
  return path; // a book page and the sitemaps read no query
}
