import { describe, expect, it } from 'vitest';
import { fromOpenLibrary, openLibraryOrigin, publishedOnFrom } from './isbn-lookup';

describe('publishedOnFrom (Open Library publish_date is free text)', () => {
  it('keeps as much precision as the text has', () => {
    expect(publishedOnFrom('1979')).toBe('1979');
    expect(publishedOnFrom('September 1998')).toBe('1998-09');
    expect(publishedOnFrom('March 5, 2004')).toBe('2004-03-05');
    expect(publishedOnFrom('1 Mar 2001')).toBe('2001-03-01');
    expect(publishedOnFrom('2001-03-01')).toBe('2001-03-01');
    expect(publishedOnFrom('c1985')).toBe('1985');
    expect(publishedOnFrom('Feb 30, 2001')).toBe('2001');
    expect(publishedOnFrom('unknown')).toBeUndefined();
  });
});

describe('fromOpenLibrary', () => {
  it('null for an empty answer; drops what is not clean text', () => {
    expect(fromOpenLibrary('9780306406157', {})).toBeNull();
    expect(fromOpenLibrary('9780306406157', null)).toBeNull();
    const odd = fromOpenLibrary('9780306406157', { 'ISBN:9780306406157': { title: 'Bad\u202Etitle', number_of_pages: -3, authors: [{ name: 42 }], cover: { large: 'javascript:x' } } });
    expect(odd).toEqual({ isbn: '9780306406157', source: 'Open Library' });
  });
});

describe('fromOpenLibrary: the subtitle (issue 37)', () => {
  it('answers Open Library\'s subtitle as its own field, the title as it is', () => {
    const found = fromOpenLibrary('9780306406157', { 'ISBN:9780306406157': { title: "The Lantern Keeper's Atlas", subtitle: ' Maps of  Quiet Coasts ' } });
    expect(found).toEqual({ isbn: '9780306406157', title: "The Lantern Keeper's Atlas", subtitle: 'Maps of Quiet Coasts', source: 'Open Library' });
    expect(fromOpenLibrary('9780306406157', { 'ISBN:9780306406157': { title: 'T', subtitle: 'Bad\u202Esub' } })).toEqual({ isbn: '9780306406157', title: 'T', source: 'Open Library' });
  });
});

describe('openLibraryOrigin', () => {
  it('is https://openlibrary.org in production, whatever OPEN_LIBRARY_ORIGIN says', () => {
    expect(openLibraryOrigin({ OPEN_LIBRARY_ORIGIN: 'http://127.0.0.1:9471', K_SERVICE: 'api' })).toBe('https://openlibrary.org');
    expect(openLibraryOrigin({ OPEN_LIBRARY_ORIGIN: 'http://127.0.0.1:9471', FUNCTIONS_EMULATOR: 'true', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' })).toBe('http://127.0.0.1:9471');
    expect(openLibraryOrigin({ FUNCTIONS_EMULATOR: 'true', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' })).toBe('https://openlibrary.org');
  });
});
