import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUPS_PER_MINUTE, resetIsbnLookups } from '../src/books/isbn-lookup';
import { startOpenLibraryFixture, type OpenLibraryFixture } from '../../scripts/lib/open-library-fixture';
import { adminToken, http } from './helpers';

// The ISBN lookup's cache and rate limit (issue 26), in one process (the handler served here by
// inproc-setup.ts), against the tests' stand-in for Open Library.

// A fixture of this file's own (any free port), so its counts are this file's requests alone.
let fixture: OpenLibraryFixture;
const suiteOrigin = process.env.OPEN_LIBRARY_ORIGIN;
beforeAll(async () => {
  resetIsbnLookups();
  fixture = await startOpenLibraryFixture(0);
  process.env.OPEN_LIBRARY_ORIGIN = fixture.origin;
});
afterAll(async () => {
  if (suiteOrigin === undefined) delete process.env.OPEN_LIBRARY_ORIGIN;
  else process.env.OPEN_LIBRARY_ORIGIN = suiteOrigin;
  await fixture.close();
});

const lookup = async (isbn: string) => http(`/api/admin/isbn/${isbn}`, { token: await adminToken() });
const isbn13 = (n: number) => {
  const body = `97800000${String(n).padStart(4, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
};

describe('ISBN lookup: cache and rate limit', () => {
  it('asks Open Library once per ISBN: the ISBN-10 and ISBN-13 of a book share the cached answer', async () => {
    const first = await lookup('0306406152');
    const second = await lookup('9780306406157');
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect([first.headers.get('x-lookup-cache'), second.headers.get('x-lookup-cache')]).toEqual(['miss', 'hit']);
    expect(fixture.hits.get('ISBN:9780306406157')).toBe(1);
  });

  it('caches "unknown" too', async () => {
    expect((await lookup(isbn13(1))).status).toBe(404);
    expect((await lookup(isbn13(1))).status).toBe(404);
    expect(fixture.hits.get(`ISBN:${isbn13(1)}`)).toBe(1);
  });

  it(`sends at most ${LOOKUPS_PER_MINUTE} lookups a minute per staff member to Open Library: then 429 with Retry-After; cached answers still come`, async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof lookup>> | undefined;
    for (let n = 2; n < LOOKUPS_PER_MINUTE + 5 && !limited; n += 1) {
      const res = await lookup(isbn13(n));
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    // Two upstream lookups were made above (the book and isbn13(1)): the 19th new ISBN is the 21st.
    expect(statuses).toEqual([...Array(LOOKUPS_PER_MINUTE - 2).fill(404), 429]);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.body.message).toMatch(/At most 20 ISBN lookups a minute/);
    expect((await lookup('9780306406157')).status).toBe(200); // from the cache
  });
});
