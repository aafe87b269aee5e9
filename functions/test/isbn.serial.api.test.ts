import { describe, expect, it } from 'vitest';
import { OPEN_LIBRARY_FIXTURE_ORIGIN } from '../../scripts/lib/env';
import { fixtureHits, outageIsbn } from '../../scripts/lib/open-library-fixture';
import { adminToken, expectUnchanged, http } from './helpers';

// GET /api/admin/isbn/:isbn over HTTP through Hosting (issue 26). The function asks the tests'
// stand-in for Open Library (open-library-fixture.ts, answers in the shape of Open Library's
// documented examples), which `npm test` runs for the whole suite and points the function at with
// OPEN_LIBRARY_ORIGIN. The cache and the rate limit are per instance, so they are tested in process
// (isbn.inproc.test.ts): the Functions emulator may answer two requests from two workers.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const lookup = async (isbn: string, token?: string | null) => http(`/api/admin/isbn/${encodeURIComponent(isbn)}`, { token: token === undefined ? await adminToken() : token });

describe('GET /api/admin/isbn/:isbn', () => {
  it('answers an ISBN-10 as its ISBN-13, with the form fields Open Library has', async () => {
    const res = await lookup('0-306-40615-2');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      isbn: '9780306406157',
      title: "The Lantern Keeper's Atlas",
      subtitle: 'Maps of Quiet Coasts', // Open Library's own field (issue 37), no longer glued to the title
      author: 'Imogen Hale, Tomas Reyes',
      publisher: 'Harbour Light Press',
      publishedOn: '2004-03-05',
      pages: 288,
      coverUrl: 'https://covers.openlibrary.org/b/id/0000001-L.jpg',
      source: 'Open Library',
    });
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    // Not whether the fixture was asked now: the instance may have this ISBN in its cache from an
    // earlier file's lookup (special orders fill their titles from it); the cache is isbn.inproc's.
  });

  it('leaves out what Open Library does not say', async () => {
    const res = await lookup('979-10-00000-01-5');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ isbn: '9791000000015', title: 'Salt and Ledger', author: 'Wren Okafor', publisher: 'Tidewater Books', publishedOn: '1998', source: 'Open Library' });
  });

  it('400 for a wrong check digit or what is not an ISBN, without asking Open Library', async () => {
    const before = Object.keys(await fixtureHits(OPEN_LIBRARY_FIXTURE_ORIGIN)).length;
    for (const [isbn, message] of [['9780306406158', 'This ISBN has a wrong check digit'], ['0306406153', 'This ISBN has a wrong check digit'], ['not-an-isbn', 'ISBN must be a valid ISBN-13 or ISBN-10']]) {
      const res = await expectUnchanged(() => lookup(isbn!));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message, details: { isbn: [message] } });
    }
    expect(Object.keys(await fixtureHits(OPEN_LIBRARY_FIXTURE_ORIGIN))).toHaveLength(before);
  });

  it('404 for an ISBN Open Library does not know', async () => {
    const res = await lookup('9780000000002');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Open Library has no book with ISBN 9780000000002');
  });

  it('503 with Retry-After when Open Library cannot be reached, never 500', async () => {
    const res = await lookup(outageIsbn()); // the fixture drops it unanswered; never asked before, so no instance has it cached
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.body).toMatchObject({ message: expect.stringMatching(/Open Library cannot be reached/), code: 'LOOKUP_UNAVAILABLE' });
  });

  it('401 without a staff token; 403 for a bookseller (who may not edit books)', async () => {
    expect((await lookup('9780306406157', null)).status).toBe(401);
    const username = `isbn-bookseller-${RUN}`;
    const password = 'margins-and-footnotes-9';
    const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: 'ISBN test', role: 'bookseller', password } });
    expect(made.status).toBe(201);
    const token = (await http('/api/auth/admin', { method: 'POST', json: { username, password } })).body.token as string;
    const res = await lookup('9780306406157', token);
    expect(res.status).toBe(403);
    await http(`/api/admin/staff/${username}`, { method: 'DELETE', token: await adminToken() });
  });
});
