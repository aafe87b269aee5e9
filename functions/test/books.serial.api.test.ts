import { describe, expect, it } from 'vitest';
import { PNG_1x1, adminToken, base, bucket, coverForm, expectUnchanged, http, newBook, seededBooks } from './helpers';

describe('GET /api/books', () => {
  it('lists the seeded books newest first with the spec fields', async () => {
    const res = await http('/api/books');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(24);
    const dates = res.body.map((b: any) => b.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const book = res.body[0];
    for (const key of ['_id', 'title', 'description', 'category', 'trending', 'coverImage', 'oldPrice', 'newPrice', 'createdAt', 'updatedAt']) {
      expect(book).toHaveProperty(key);
    }
    expect(new Date(book.createdAt).toISOString()).toBe(book.createdAt);
    expect(res.headers.get('cache-control')).toContain('s-maxage');
  });

  it('filters by category and limits, with an after cursor for the next page', async () => {
    const fiction = await http('/api/books?category=fiction&limit=3');
    expect(fiction.status).toBe(200);
    expect(fiction.body).toHaveLength(3);
    expect(fiction.body.every((b: any) => b.category === 'fiction')).toBe(true);
    const next = await http(`/api/books?category=fiction&limit=3&after=${fiction.body[2]._id}`);
    expect(next.body[0].createdAt < fiction.body[2].createdAt).toBe(true);
  });

  it('rejects a bad limit or category with 400', async () => {
    expect((await http('/api/books?limit=0')).status).toBe(400);
    expect((await http('/api/books?limit=abc')).body.message).toBeTruthy();
    expect((await http('/api/books?category=poetry')).status).toBe(400);
  });
});

describe('GET /api/books/:id', () => {
  it('returns one book', async () => {
    const [first] = await seededBooks();
    const res = await http(`/api/books/${first._id}`);
    expect(res.status).toBe(200);
    expect(res.body.title).toBe(first.title);
  });

  it('answers 404 Book not found for unknown and malformed ids', async () => {
    for (const id of ['does-not-exist', '__name__', 'bad$id', 'x'.repeat(200)]) {
      const res = await http(`/api/books/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Book not found' });
    }
  });
});

describe('admin book management', () => {
  it('refuses writes without a valid admin token', async () => {
    await expectUnchanged(async () => {
      const none = await http('/api/books/create-book', { method: 'POST', json: newBook() });
      expect(none.status).toBe(401);
      expect(none.body.message).toBe('Admin token required');
      const bad = await http('/api/books/create-book', { method: 'POST', token: 'a.b.c', json: newBook() });
      expect(bad.status).toBe(401);
      const [first] = await seededBooks();
      expect((await http(`/api/books/${first._id}`, { method: 'DELETE' })).status).toBe(401);
      expect((await http(`/api/books/edit/${first._id}`, { method: 'PUT', json: newBook() })).status).toBe(401);
    });
  });

});

describe('covers', () => {
  it('uploads a PNG to Storage under a content hash, serves it immutable, and deletes it with its book', async () => {
    const token = await adminToken();
    const upload = await http('/api/books/cover', { method: 'POST', token, body: coverForm(PNG_1x1, '../../evil.png') });
    expect(upload.status).toBe(201);
    expect(upload.body.coverImage).toMatch(/^covers\/[a-f0-9]{32}\.png$/);
    const [exists] = await bucket().file(upload.body.coverImage).exists();
    expect(exists).toBe(true);

    const served = await fetch(`${base()}/api/${upload.body.coverImage}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, s-maxage=3600, immutable');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG_1x1);

    const created = await http('/api/books/create-book', { method: 'POST', token, json: newBook({ coverImage: upload.body.coverImage }) });
    expect(created.status).toBe(201);
    await http(`/api/books/${created.body.book._id}`, { method: 'DELETE', token });
    const [still] = await bucket().file(upload.body.coverImage).exists();
    expect(still).toBe(false);
  });

  it('refuses files that are not images, wrong fields, and uploads without a token', async () => {
    const token = await adminToken();
    await expectUnchanged(async () => {
      const text = await http('/api/books/cover', { method: 'POST', token, body: coverForm(Buffer.from('<svg onload=alert(1)>'), 'x.png') });
      expect(text.status).toBe(415);
      const field = await http('/api/books/cover', { method: 'POST', token, body: coverForm(PNG_1x1, 'a.png', 'image') });
      expect(field.status).toBe(400);
      const anon = await http('/api/books/cover', { method: 'POST', body: coverForm(PNG_1x1) });
      expect(anon.status).toBe(401);
      const big = Buffer.concat([PNG_1x1, Buffer.alloc(2 * 1024 * 1024 + 10)]);
      const tooBig = await http('/api/books/cover', { method: 'POST', token, body: coverForm(big) });
      expect(tooBig.status).toBe(413);
    });
  });

  it('answers 404 for a cover that does not exist or a name that tries a path', async () => {
    expect((await http('/api/covers/0123456789abcdef0123456789abcdef.png')).status).toBe(404);
    expect((await http('/api/covers/..%2F..%2Fsecret')).status).toBe(404);
  });
});
