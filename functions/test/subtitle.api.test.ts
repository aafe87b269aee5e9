import { toCsv } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLdOf, schemaOrgBookProblems } from './schema-org-book';
import { adminToken, base, db, http, newBook } from './helpers';

// The subtitle end to end over HTTP through Hosting (issue 37, the field that proves the registry):
// the API, the served book page (under the title) and its JSON-LD, search and the import (the ISBN
// lookup's subtitle: isbn.serial.api.test.ts, which owns the Open Library stand-in's hit counts). The field
// itself is one entry in contract/src/book-fields.ts.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
/** A word of this run's own, so a search finds only this file's books. */
const WORD = `quoll${RUN.replace(/[0-9]/g, '')}`;
const made: string[] = [];

afterAll(async () => {
  const token = await adminToken();
  for (const id of made) await http(`/api/books/${id}`, { method: 'DELETE', token });
});

/** Waits for search to see a change (each instance reloads its index within about a second of a catalogue change). */
async function searchUntil(q: string, done: (ids: string[]) => boolean): Promise<string[]> {
  for (let attempt = 0; ; attempt += 1) {
    const ids = ((await http(`/api/books/search?q=${encodeURIComponent(q)}`)).body.books as { _id: string }[]).map((b) => b._id);
    if (done(ids) || attempt >= 60) return ids;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('a book with a subtitle', () => {
  let id: string;
  beforeAll(async () => {
    const created = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: newBook({ title: `The Harbour ${RUN}`, subtitle: `A History of ${WORD} Lights` }) });
    expect(created.status).toBe(201);
    id = created.body.book._id;
    made.push(id);
  });

  it('is stored and answered by the API', async () => {
    expect((await http(`/api/books/${id}`)).body).toMatchObject({ title: `The Harbour ${RUN}`, subtitle: `A History of ${WORD} Lights` });
    expect((await db().collection('books').doc(id).get()).data()).toMatchObject({ subtitle: `A History of ${WORD} Lights` });
  });

  it('shows on the served book page under the title, and in its JSON-LD as alternativeHeadline', async () => {
    const res = await fetch(`${base()}/books/${id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(new RegExp(`<h1[^>]*>The Harbour ${RUN}</h1><p[^>]*>A History of ${WORD} Lights</p>`));
    const [ld] = jsonLdOf(html);
    expect(ld).toMatchObject({ name: `The Harbour ${RUN}`, alternativeHeadline: `A History of ${WORD} Lights` });
    expect(schemaOrgBookProblems(ld!)).toEqual([]);
  });

  it('is searched: a word only the subtitle has finds the book; an edit that clears it, not any more', async () => {
    expect(await searchUntil(WORD, (ids) => ids.includes(id))).toContain(id);
    const book = (await http(`/api/books/${id}`)).body;
    const { _id, createdAt: _c, updatedAt: _u, subtitle: _s, ...body } = book;
    const edited = await http(`/api/books/edit/${_id}`, { method: 'PUT', token: await adminToken(), json: body }); // PUT without it: cleared
    expect(edited.status).toBe(200);
    expect(edited.body.book).not.toHaveProperty('subtitle');
    expect(await searchUntil(WORD, (ids) => !ids.includes(id))).not.toContain(id);
  });
});

describe('the import\'s subtitle column', () => {
  const HEADER = ['title', 'description', 'category', 'oldPrice', 'newPrice', 'isbn', 'coverImage'];
  const code = (() => {
    const body = `97917${String(Date.now() % 1e7).padStart(7, '0')}`;
    const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
    return body + ((10 - (sum % 10)) % 10);
  })();
  const importCsv = async (records: string[][]) =>
    http('/api/books/import', { method: 'POST', body: toCsv(records), headers: { 'Content-Type': 'text/csv' }, token: await adminToken() });
  const stored = async () => (await db().collection('books').doc(`isbn-${code}`).get()).data();

  it('sets it; a file without the column keeps it; the column present but empty clears it', async () => {
    const first = await importCsv([[...HEADER, 'subtitle'], [`Imported ${RUN}`, 'D', 'fiction', '20', '12.50', code, 'book-4', 'Notes on Tides']]);
    expect(first.body).toMatchObject({ created: 1, errors: [] });
    made.push(`isbn-${code}`);
    expect(await stored()).toMatchObject({ subtitle: 'Notes on Tides' });

    const without = await importCsv([HEADER, [`Imported ${RUN}`, 'D', 'fiction', '20', '9.99', code, '']]);
    expect(without.body).toMatchObject({ updated: 1, errors: [] });
    expect(await stored()).toMatchObject({ subtitle: 'Notes on Tides', newPriceCents: 999 });

    const cleared = await importCsv([[...HEADER, 'subtitle'], [`Imported ${RUN}`, 'D', 'fiction', '20', '9.99', code, '', '']]);
    expect(cleared.body).toMatchObject({ updated: 1, errors: [] });
    expect(await stored()).not.toHaveProperty('subtitle');
  });
});
