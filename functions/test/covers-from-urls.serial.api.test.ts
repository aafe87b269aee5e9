import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toCsv } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bucket, db, expectUnchanged, http, newBook, PNG_1x1 } from './helpers';

// Covers from URLs (issue 26), over HTTP through Hosting to the function in the Functions emulator,
// which fetches from a server this test runs on loopback (the emulators' policy allows loopback and
// plain http; production allows neither: functions/src/books/cover-fetch.test.ts). Hostile rows:
// the cloud metadata address, a private address behind a redirect, a 10 MB image, a page that is
// not an image and a server that never answers are row errors, and nothing of them is stored.

const RUN = String(Math.floor(Math.random() * 900) + 100);
const HEADER = ['title', 'author', 'description', 'category', 'oldPrice', 'newPrice', 'stock', 'isbn', 'coverUrl', 'publisher', 'publishedOn', 'pages', 'format', 'language'];

/** A valid ISBN-13 of this run: 979-12-RUN-nnnn plus its check digit. */
function isbn(n: number): string {
  const body = `97912${RUN}${String(n).padStart(4, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

/** Images of this run only (a random ancillary chunk after the header): their hashes are new to Storage. */
const pngOfThisRun = () => Buffer.concat([PNG_1x1, randomBytes(64)]);
const IMAGES: Record<string, Buffer> = {
  '/a.png': pngOfThisRun(),
  '/b.jpg': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(200)]),
  '/c.png': pngOfThisRun(),
};
const TEN_MB = 10 * 1024 * 1024;
const hits = new Map<string, number>();
let server: Server;
let origin = '';

const stored = (bytes: Buffer, ext: string) => `covers/${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${ext}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const image = IMAGES[path];
    if (image) return res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': image.length }).end(image);
    if (path === '/huge.png') {
      // A real PNG header, then 10 MB, without a Content-Length: only counting the bytes stops it.
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(PNG_1x1);
      let sent = 0;
      const chunk = Buffer.alloc(256 * 1024, 7);
      const push = () => {
        while (sent < TEN_MB) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end();
      };
      return push();
    }
    if (path === '/to-private') return res.writeHead(302, { Location: 'http://10.0.0.1/cover.png' }).end();
    if (path === '/to-metadata') return res.writeHead(302, { Location: 'http://169.254.169.254/computeMetadata/v1/' }).end();
    if (path === '/page.html') return res.writeHead(200, { 'Content-Type': 'image/png' }).end('<!doctype html><p>Not an image</p>');
    if (path === '/slow.png') return; // never answers: the function gives up at 5 s
    res.writeHead(404).end();
  });
  server.on('clientError', () => {}); // the function hangs up on /huge.png mid-body
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  const snap = await db().collection('books').where('isbn', '>=', `97912${RUN}`).where('isbn', '<', `97912${RUN}~`).get();
  const writer = db().bulkWriter();
  for (const doc of snap.docs) void writer.delete(doc.ref);
  await writer.close();
  for (const [path, bytes] of Object.entries(IMAGES)) await bucket().file(stored(bytes, path.endsWith('.jpg') ? 'jpg' : 'png')).delete({ ignoreNotFound: true });
});

const row = (n: number, coverUrl: string, details: string[] = ['', '', '', '', '']) =>
  [`Covered ${RUN}-${n}`, 'Ada Writer', 'A book with a cover from a URL.', 'fiction', '20', '12.50', '3', isbn(n), coverUrl, ...details];

async function importCsv(body: string, query = '') {
  return http(`/api/books/import${query}`, { method: 'POST', body, headers: { 'Content-Type': 'text/csv' }, token: await adminToken() });
}

const booksOfRun = async () => (await db().collection('books').where('isbn', '>=', `97912${RUN}`).where('isbn', '<', `97912${RUN}~`).get()).docs;

describe('POST /api/books/import with cover URLs', () => {
  const good = () => [
    row(1, `${origin}/a.png`, ['Quiet Press', '2019-04-02', '312', 'Hardcover', 'en-gb']),
    row(2, `${origin}/a.png`), // the same address: fetched once
    row(3, `${origin}/b.jpg`),
  ];
  // The never-answering address costs its 5 s wait each time: only the first test sends it.
  const hostile = ({ slow } = { slow: false }) => [
    row(4, 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'),
    row(5, `${origin}/huge.png`),
    row(6, `${origin}/to-private`),
    row(7, `${origin}/to-metadata`),
    row(8, `${origin}/page.html`),
    ...(slow ? [row(9, `${origin}/slow.png`)] : []),
  ];
  const EXPECTED_ERRORS = [
    [4, /169\.254\.169\.254 is a private or reserved address/],
    [5, /larger than 2 MB/],
    [6, /redirected to a refused address.*10\.0\.0\.1/],
    [7, /redirected to a refused address.*169\.254\.169\.254/],
    [8, /not a PNG, JPEG, WebP or GIF image/],
    [9, /did not answer within 5 s/],
  ] as const;
  const FAST_ERRORS = EXPECTED_ERRORS.filter(([n]) => n !== 9);

  it('the hostile rows alone: six row errors on coverUrl, nothing stored in Firestore or Storage', async () => {
    hits.clear();
    const res = await expectUnchanged(() => importCsv(toCsv([HEADER, ...hostile({ slow: true })])));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 0, updated: 0, unchanged: 0, dryRun: false });
    expect(res.body.errors).toHaveLength(EXPECTED_ERRORS.length);
    EXPECTED_ERRORS.forEach(([n, message], i) => {
      expect(res.body.errors[i]).toEqual({ row: n - 3, field: 'coverUrl', message: expect.stringMatching(message) });
    });
    expect(await booksOfRun()).toHaveLength(0);
    expect(hits.get('/huge.png')).toBe(1);
  });

  it('dry run: fetches each distinct address once, reports the bad rows, stores nothing', async () => {
    hits.clear();
    const res = await expectUnchanged(() => importCsv(toCsv([HEADER, ...good(), ...hostile()]), '?dryRun=1'));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 3, updated: 0, dryRun: true });
    expect(res.body.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual(FAST_ERRORS.map(([n]) => [n, 'coverUrl']));
    expect(hits.get('/a.png')).toBe(1);
    expect(hits.get('/b.jpg')).toBe(1);
  });

  it('imports the good rows with their covers stored by content hash, one fetch per distinct URL; the hostile rows store nothing', async () => {
    hits.clear();
    const [files] = await bucket().getFiles({ prefix: 'covers/' });
    const before = new Set(files.map((f) => f.name));
    const res = await importCsv(toCsv([HEADER, ...good(), ...hostile()]));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 3, updated: 0, unchanged: 0, dryRun: false });
    expect(res.body.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual(FAST_ERRORS.map(([n]) => [n, 'coverUrl']));
    // One request per distinct address, although two rows name /a.png.
    expect(hits.get('/a.png')).toBe(1);
    expect(hits.get('/b.jpg')).toBe(1);

    const a = stored(IMAGES['/a.png']!, 'png');
    const b = stored(IMAGES['/b.jpg']!, 'jpg');
    const byIsbn = new Map((await booksOfRun()).map((d) => [d.data().isbn as string, d.data()]));
    expect([...byIsbn.keys()].sort()).toEqual([isbn(1), isbn(2), isbn(3)]);
    expect(byIsbn.get(isbn(1))).toMatchObject({ coverImage: a, publisher: 'Quiet Press', publishedOn: '2019-04-02', pages: 312, format: 'hardcover', language: 'en-GB' });
    expect(byIsbn.get(isbn(2))!.coverImage).toBe(a);
    expect(byIsbn.get(isbn(3))!.coverImage).toBe(b);
    for (const book of byIsbn.values()) expect(JSON.stringify(book)).not.toContain(origin); // the address is not kept

    // Storage gained exactly the two covers, and serves them from our origin.
    const [after] = await bucket().getFiles({ prefix: 'covers/' });
    expect(after.map((f) => f.name).filter((n) => !before.has(n)).sort()).toEqual([a, b].sort());
    const served = await http(`/api/${a}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('importing again updates a book whose cover URL changed, and leaves the others unchanged', async () => {
    const res = await importCsv(toCsv([HEADER, row(1, `${origin}/a.png`, ['Quiet Press', '2019-04-02', '312', 'Hardcover', 'en-gb']), row(2, `${origin}/c.png`)]));
    expect(res.body).toMatchObject({ created: 0, updated: 1, unchanged: 1, errors: [] });
    const book = (await db().collection('books').doc(`isbn-${isbn(2)}`).get()).data()!;
    expect(book.coverImage).toBe(stored(IMAGES['/c.png']!, 'png'));
  });
});

describe('a cover URL in the book form (create and edit)', () => {
  it('creates a book whose cover is fetched and stored as ours', async () => {
    const res = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: newBook({ coverImage: '', coverUrl: `${origin}/a.png`, isbn: isbn(50) }) });
    expect(res.status).toBe(201);
    expect(res.body.book.coverImage).toBe(stored(IMAGES['/a.png']!, 'png'));
    expect(res.body.book).not.toHaveProperty('coverUrl');
  });

  it('refuses the metadata address and a 10 MB image with 400 on coverUrl, and changes nothing', async () => {
    const token = await adminToken();
    for (const coverUrl of ['http://169.254.169.254/computeMetadata/v1/', `${origin}/huge.png`, `${origin}/to-private`]) {
      const res = await expectUnchanged(() => http('/api/books/create-book', { method: 'POST', token, json: newBook({ coverImage: '', coverUrl, isbn: isbn(51) }) }));
      expect(res.status).toBe(400);
      expect(res.body.details.coverUrl[0]).toBe(res.body.message);
    }
  });
});
