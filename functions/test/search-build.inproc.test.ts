import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetCatalogIndex } from '../src/books/catalog-index';
import { buildSearchSnapshots } from '../src/books/search-build';
import { SEARCH_SCHEMA } from '../src/books/search-index';
import { publishedRef } from '../src/books/search-snapshot';
import { readSitemapPlan, sitemapEntries, type SitemapPlan } from '../src/books/sitemap.repo';
import { urlset } from '../src/pages/sitemap';
import { bucket } from '../src/lib/firebase';
import { adminToken, db, http, newBook } from './helpers';

// The search index built off the request path (issue 58, decision 044), in-process on the lane's
// own database: the `search` app served here beside the `api` handler (inproc-setup.ts),
// and the builder (`buildSearchIndex`'s work) called when the test says, so that what `search` does
// while no builder has run is seen: it serves the index it has, and never builds one itself.

const MARK = `zq${Date.now().toString(36)}`;
// The edited title's word: nothing like MARK (a search forgives two letters, and falls back to any word).
const EDITED = `wv${Math.random().toString(36).slice(2, 10).replace(/[0-9]/g, 'k')}`;

async function serve(app: Parameters<typeof createServer>[1]): Promise<{ server: Server; base: string }> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let search: { server: Server; base: string };

beforeAll(async () => {
  resetCatalogIndex(); // a cold instance, whatever another file of this worker searched
  const { createSearchApp } = await import('../src/books/search.app');
  search = await serve(createSearchApp());
});

afterAll(async () => {
  search.server.closeAllConnections();
  await new Promise((resolve) => search.server.close(resolve));
});

async function get(base: string, path: string) {
  const res = await fetch(`${base}${path}`);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

const searchFor = (q: string) => get(search.base, `/api/books/search?q=${encodeURIComponent(q)}&limit=24`);
const ids = (reply: { body: { books: { _id: string }[] } }) => reply.body.books.map((b) => b._id);
const catalogVersion = async () => ((await db().collection('meta').doc('catalog').get()).get('version') as number | undefined) ?? 0;
const snapshotNames = async () => (await bucket().getFiles({ prefix: `search-index/${SEARCH_SCHEMA}/` }))[0].map((f) => f.name);
const lease = async () => (await db().collection('meta').doc(`searchBuild-${SEARCH_SCHEMA}`).get()).data() ?? null;

describe('search before any snapshot exists', () => {
  it('answers 503 with Retry-After and asks the builder for one, building nothing itself', async () => {
    await publishedRef().delete();
    const leaseBefore = await lease();
    const started = Date.now();
    const reply = await searchFor('harry');
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('30');
    expect(reply.body).toMatchObject({ message: expect.any(String), code: 'SEARCH_NOT_READY' });
    expect(Date.now() - started, 'a cold instance waits for the builder a while first').toBeGreaterThanOrEqual(9000);
    // The request was a call for the builder (meta/catalog written, the version left as it was) ...
    const asked = (await db().collection('meta').doc('catalog').get()).get('searchWanted') as { schema: string; at: string };
    expect(asked.schema).toBe(SEARCH_SCHEMA);
    expect(Date.parse(asked.at)).toBeGreaterThanOrEqual(started - 1000);
    // ... and no build: nothing published, the builder's lease untouched.
    expect((await publishedRef().get()).exists).toBe(false);
    expect(await lease()).toEqual(leaseBefore);
  }, 30_000);
});

describe('search through an edit', () => {
  it('serves the index it has while a newer version waits for, then is being built; the edit is searchable once the builder ran', async () => {
    const token = await adminToken();
    const created = await http('/api/books/create-book', { method: 'POST', token, json: newBook({ title: `Zephyrine ${MARK}` }) });
    expect(created.status).toBe(201);
    const id = created.body.book._id as string;

    const first = await buildSearchSnapshots({ debounceMs: 0 });
    const v1 = await catalogVersion();
    expect(first.built.at(-1)?.version).toBe(v1);
    expect(ids(await searchFor(`zephyrine ${MARK}`))).toEqual([id]);

    // The edit moves the catalogue version; no builder runs yet.
    const edited = await http(`/api/books/edit/${id}`, { method: 'PUT', token, json: newBook({ title: `Quillwort ${EDITED}` }) });
    expect(edited.status).toBe(200);
    const v2 = await catalogVersion();
    expect(v2).toBeGreaterThan(v1);
    const files = await snapshotNames();
    const leaseBefore = await lease();
    // Over several of the instance's version checks (one a second): every answer is the old index's.
    for (let i = 0; i < 6; i++) {
      const old = await searchFor(`zephyrine ${MARK}`);
      expect(old.status).toBe(200);
      expect(ids(old)).toEqual([id]);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    expect(ids(await searchFor(EDITED))).toEqual([]);
    // No request built anything: the same snapshot published, no new file, the lease untouched.
    expect((await publishedRef().get()).get('version')).toBe(v1);
    expect(await snapshotNames()).toEqual(files);
    expect(await lease()).toEqual(leaseBefore);

    // The builder runs; searches meanwhile are answered (from the old index) without waiting for it.
    const building = buildSearchSnapshots({ debounceMs: 0 });
    const during = await searchFor(`zephyrine ${MARK}`);
    expect(during.status).toBe(200);
    const run = await building;
    expect(run.built.map((b) => b.version)).toContain(v2);
    expect((await publishedRef().get()).get('version')).toBe(v2);

    // The instance loads it behind its answers: the edit is searchable within a few checks.
    let found: string[] = [];
    for (let i = 0; i < 25 && found.length === 0; i++) {
      found = ids(await searchFor(EDITED));
      if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(found).toEqual([id]);
    expect(ids(await searchFor(`zephyrine ${MARK}`))).toEqual([]);
    // A second run finds nothing to do.
    expect(await buildSearchSnapshots({ debounceMs: 0 })).toEqual({ built: [], skipped: 'current' });
  }, 60_000);
});

describe('sitemaps split by count (files of 7 books here)', () => {
  // The `pages` routes over these (index and files, headers) are catalog-pages.serial.api.test.ts's.
  async function checkSplit(plan: SitemapPlan) {
    const all = (await db().collection('books').select().get()).docs.map((d) => d.id).sort();
    expect(plan.starts).toHaveLength(Math.ceil(all.length / 7));
    const listed: string[] = [];
    for (let n = 1; n <= plan.starts.length; n++) {
      const books = (await sitemapEntries(plan, n)).map((e) => e.id);
      expect(books.length, `file ${n}`).toBeLessThanOrEqual(7);
      if (n < plan.starts.length) expect(books.length, `file ${n} is full`).toBe(7);
      listed.push(...books);
    }
    // Every book once, in Firestore's id order across the files.
    expect(listed).toEqual([...all].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    // File 1's XML as `pages` writes it: the site's own pages, then its books.
    const first = await sitemapEntries(plan, 1, 2);
    const xml = urlset([{ loc: 'https://shop.test/' }, { loc: 'https://shop.test/books' }, ...first.map((e) => ({ loc: `https://shop.test/books/${e.id}`, lastmod: e.updatedAt }))]);
    expect(xml.match(/<url>/g)).toHaveLength(2 + Math.min(7, all.length));
  }

  it("follows the plan the builder writes from the ids it reads: one file per 7 books, each its own 7, every book once", async () => {
    // The plan is written with each build: a version move makes one.
    await db().collection('meta').doc('catalog').set({ version: (await catalogVersion()) + 1 }, { merge: true });
    const run = await buildSearchSnapshots({ debounceMs: 0, sitemapUrlsPerFile: 7 });
    expect(run.built).toHaveLength(1);
    const stored = (await db().collection('meta').doc('sitemap').get()).data() as SitemapPlan;
    expect(stored.perFile).toBe(7);
    expect(await readSitemapPlan(7)).toEqual(stored);
    await checkSplit(stored);
  }, 60_000);

  it('splits the same way before any builder has planned it (the ids read in pages of 1,000)', async () => {
    await db().collection('meta').doc('sitemap').delete();
    await checkSplit(await readSitemapPlan(7));
  }, 60_000);
});
