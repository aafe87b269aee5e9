import { describe, expect, it, vi } from 'vitest';
import { bucket } from '../src/lib/firebase';
import { adminToken, coverForm, expectUnchanged, http, newBook, PNG_1x1 } from './helpers';

// Book management's logic, in-process (inproc-setup.ts): create, edit, delete, validation.
// Reads, covers and refusals without a token through Hosting: books.serial.api.test.ts.

describe('admin book management', () => {
  it('creates, edits and deletes a book, storing cents and ignoring unknown fields', async () => {
    const token = await adminToken();
    const created = await http('/api/books/create-book', { method: 'POST', token, json: newBook({ isAdmin: true, _id: 'mine' }) });
    expect(created.status).toBe(201);
    const book = created.body.book;
    expect(book).toMatchObject({ title: 'A Test of Patience', category: 'fiction', newPrice: 12.5, oldPrice: 20 });
    expect(book._id).not.toBe('mine');
    expect(book).not.toHaveProperty('isAdmin');

    const edited = await http(`/api/books/edit/${book._id}`, { method: 'PUT', token, json: newBook({ title: 'Edited', newPrice: 9.99, coverImage: '' }) });
    expect(edited.status).toBe(200);
    expect(edited.body.book).toMatchObject({ title: 'Edited', newPrice: 9.99, coverImage: 'book-3', createdAt: book.createdAt });

    const fetched = await http(`/api/books/${book._id}`, { token });
    expect(fetched.body.title).toBe('Edited');
    expect(fetched.headers.get('cache-control')).toContain('no-store');

    const deleted = await http(`/api/books/${book._id}`, { method: 'DELETE', token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.book._id).toBe(book._id);
    expect((await http(`/api/books/${book._id}`)).status).toBe(404);
  });

  it('deletes a book whose cover Storage fails to release: 200, the book gone, the cover left behind', async () => {
    const token = await adminToken();
    const upload = await http('/api/books/cover', { method: 'POST', token, body: coverForm(Buffer.concat([PNG_1x1, Buffer.from(`release-${Date.now()}`)])) });
    expect(upload.status).toBe(201);
    const cover = upload.body.coverImage as string;
    const created = await http('/api/books/create-book', { method: 'POST', token, json: newBook({ coverImage: cover }) });
    expect(created.status).toBe(201);
    // The fault where it happens in production: the Storage SDK's delete of that object rejects
    // (seen under load: a socket hang-up from the Storage emulator).
    const File = bucket().file(cover).constructor as { prototype: { delete(): Promise<unknown> } };
    const failing = vi.spyOn(File.prototype, 'delete').mockRejectedValueOnce(new Error('socket hang up'));
    try {
      const deleted = await http(`/api/books/${created.body.book._id}`, { method: 'DELETE', token });
      expect(failing).toHaveBeenCalledTimes(1);
      expect(deleted).toMatchObject({ status: 200, body: { message: 'Book deleted successfully' } });
    } finally {
      failing.mockRestore();
    }
    expect((await http(`/api/books/${created.body.book._id}`)).status).toBe(404);
    expect((await bucket().file(cover).exists())[0]).toBe(true);
  });

  it('answers 404 when editing or deleting an unknown book, changing nothing', async () => {
    const token = await adminToken();
    await expectUnchanged(async () => {
      expect((await http('/api/books/edit/nope', { method: 'PUT', token, json: newBook() })).status).toBe(404);
      expect((await http('/api/books/nope', { method: 'DELETE', token })).status).toBe(404);
    });
  });

  it('validates every field with 400 and details', async () => {
    const token = await adminToken();
    await expectUnchanged(async () => {
      const res = await http('/api/books/create-book', { method: 'POST', token, json: newBook({ title: '', newPrice: -1, category: 'poetry', coverImage: 'javascript:alert(1)' }) });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.details).sort()).toEqual(['category', 'coverImage', 'newPrice', 'title']);
      const wrongType = await http('/api/books/create-book', { method: 'POST', token, headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(newBook()) });
      expect(wrongType.status).toBe(415);
    });
  });
});

describe('bodies, as the runtime parses them', () => {
  // functions-framework parses bodies before our app; lib/body-parse-errors.ts wraps its parsers.
  it('answers malformed JSON with 400 and an oversize body with 413, as JSON, before any handler', async () => {
    const token = await adminToken();
    await expectUnchanged(async () => {
      const broken = await http('/api/books/create-book', { method: 'POST', token, headers: { 'Content-Type': 'application/json' }, body: '{"title":' });
      expect(broken).toMatchObject({ status: 400, body: { message: 'Request body is not valid JSON' } });
      const huge = await http('/api/books/create-book', { method: 'POST', token, json: newBook({ description: 'd'.repeat(200 * 1024) }) });
      expect(huge).toMatchObject({ status: 413, body: { message: 'Request body is too large' } });
    });
  });
});
