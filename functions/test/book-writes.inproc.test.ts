import { BOOK_FIELD_NAMES, STORED_FIELD_NAMES, type BookFields } from '@bookstore/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { DERIVED_FIELDS } from '../src/books/book-doc';
import { commitBookWrites, INLINE_RESTOCKS, noAfterCommit, stageBookWrites } from '../src/books/book-writes';
import { alertMailId } from '../src/subscriptions/stock-alerts.repo';
import { db, removeBooks } from './helpers';

// The book write path (functions/src/books/book-writes.ts) over the Firestore emulator, called as
// the repositories call it: what a stored book holds, how it composes with a caller's transaction,
// and each side effect (stock flags, audit, catalogue version, back-in-stock alerts) applied once.

const RUN = `bw${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const owner = { username: `owner-${RUN}`, role: 'owner' } as const;
const made: { _id: string }[] = [];
const markers: string[] = [];
const alertIds: string[] = [];
afterAll(async () => {
  await removeBooks(made);
  await Promise.all([...markers.map((id) => db().collection('meta').doc(id).delete()), ...alertIds.map((id) => db().collection('stockAlerts').doc(id).delete())]);
});

/** Every field of the registry, set. */
const everyField = (over: Partial<BookFields> = {}): BookFields => ({
  title: `Write Path ${RUN}`, subtitle: 'A Subtitle', author: 'Ada Field', description: 'Written through the one door.', category: 'fiction', trending: true,
  oldPrice: 20, newPrice: 12.5, isbn: '9780306406157', stock: 3, weightGrams: 450, publisher: 'Door Press', publishedOn: '2001-02', pages: 200,
  format: 'paperback', language: 'en-GB', coverImage: 'book-2', preorderLimit: 5, reorderMin: 4, ...over,
});

async function create(fields: BookFields): Promise<string> {
  const [result] = await commitBookWrites({ staff: owner }, async () => [{ create: fields }]);
  made.push({ _id: result!.id });
  return result!.id;
}
const stored = async (id: string) => (await db().collection('books').doc(id).get()).data()!;
const version = async () => ((await db().collection('meta').doc('catalog').get()).get('version') as number | undefined) ?? 0;
const auditOf = async (id: string) => (await db().collection('audit').where('target', '==', `books/${id}`).get()).docs.map((d) => d.data());

/** An alert waiting for `bookId`, as subscribe() stores one. */
async function waitFor(bookId: string, n: number): Promise<{ id: string; nonce: string }> {
  const id = `${bookId}_${RUN}${n}`;
  const nonce = `${RUN}${n}`;
  await db().collection('stockAlerts').doc(id).set({ bookId, email: `reader${n}@example.com`, emailKey: `${RUN}${n}`, nonce, createdAt: new Date().toISOString(), unsubscribeUrl: 'http://127.0.0.1/unsubscribe' });
  alertIds.push(id);
  return { id, nonce };
}

describe('the stored book', () => {
  it('holds exactly the registry\'s fields, its dates and the derived query fields (the guard of STYLE.md 13)', async () => {
    const fields = everyField();
    const id = await create(fields);
    const doc = await stored(id);
    const known = new Set<string>([...STORED_FIELD_NAMES, ...DERIVED_FIELDS, 'createdAt', 'updatedAt']);
    expect(Object.keys(doc).filter((key) => !known.has(key))).toEqual([]);
    // Every field of the registry is stored (all were given), prices in cents.
    expect(STORED_FIELD_NAMES.filter((name) => !(name in doc))).toEqual([]);
    expect(doc).toMatchObject({ oldPriceCents: 2000, newPriceCents: 1250, inStock: true, subtitle: 'A Subtitle' });
    // And reads back as the fields it was given.
    const [read] = await commitBookWrites({ staff: owner }, async (tx) => [{ book: await tx.get(db().collection('books').doc(id)), set: {} }]);
    expect(Object.fromEntries(BOOK_FIELD_NAMES.map((name) => [name, read!.after![name]]))).toEqual(fields);
  });
});

describe('in the caller\'s transaction', () => {
  it('commits the caller\'s writes and the books\' together, and neither when the transaction fails', async () => {
    const id = await create(everyField({ stock: 2 }));
    const ref = db().collection('books').doc(id);
    const marker = (n: number) => db().collection('meta').doc(`${RUN}-marker-${n}`);
    markers.push(`${RUN}-marker-1`, `${RUN}-marker-2`);

    let afterCommit = noAfterCommit;
    await db().runTransaction(async (tx) => {
      const snap = await tx.get(ref);
      const staged = await stageBookWrites(tx, [{ book: snap, stockDelta: -1 }], { order: 'orders/test' });
      tx.create(marker(1), { at: 'placed' }); // the caller's own write, between staging and queuing
      afterCommit = staged.write();
    });
    await afterCommit();
    expect((await stored(id)).stock).toBe(1);
    expect((await stored(id)).inStock).toBe(true);
    expect((await marker(1).get()).exists).toBe(true);

    await expect(
      db().runTransaction(async (tx) => {
        const staged = await stageBookWrites(tx, [{ book: await tx.get(ref), stockDelta: -1 }], { order: 'orders/test' });
        tx.create(marker(2), { at: 'never' });
        staged.write();
        throw new Error('the caller gives up after queuing');
      }),
    ).rejects.toThrow('gives up');
    expect((await stored(id)).stock).toBe(1);
    expect((await marker(2).get()).exists).toBe(false);
  });

  it('never takes stock below 0: 409 OUT_OF_STOCK naming the books, nothing written', async () => {
    const id = await create(everyField({ stock: 0 }));
    const before = await stored(id);
    await expect(
      commitBookWrites({ order: 'orders/test' }, async (tx) => [{ book: await tx.get(db().collection('books').doc(id)), stockDelta: -1 }]),
    ).rejects.toMatchObject({ status: 409, extra: { code: 'OUT_OF_STOCK', productIDs: [id] } });
    expect(await stored(id)).toEqual(before);
  });
});

describe('side effects, once each', () => {
  it('an order\'s stock change keeps the flags in step, writes no audit event and leaves the search index\'s version', async () => {
    const id = await create(everyField({ stock: 1 }));
    const v = await version();
    const events = (await auditOf(id)).length;
    await commitBookWrites({ order: 'orders/test' }, async (tx) => [{ book: await tx.get(db().collection('books').doc(id)), stockDelta: -1 }]);
    expect(await stored(id)).toMatchObject({ stock: 0, inStock: false });
    expect(await version()).toBe(v); // the index holds no stock
    expect((await auditOf(id)).length).toBe(events); // the order records it
  });

  it('a staff edit of a searched field has one audit event with before and after, and moves the version once', async () => {
    const id = await create(everyField());
    const v = await version();
    await commitBookWrites({ staff: owner }, async (tx) => [{ book: await tx.get(db().collection('books').doc(id)), set: { subtitle: 'Another Subtitle', stock: 9 } }]);
    expect(await version()).toBe(v + 1);
    const edits = (await auditOf(id)).filter((e) => e.action === 'book.edit');
    expect(edits).toEqual([expect.objectContaining({ actor: owner.username, role: 'owner', changes: { subtitle: { before: 'A Subtitle', after: 'Another Subtitle' }, stock: { before: 3, after: 9 } } })]);
  });

  it('a save that changes nothing writes nothing: no event, no version, the same updatedAt', async () => {
    const id = await create(everyField());
    const [doc, v, events] = [await stored(id), await version(), (await auditOf(id)).length];
    const [result] = await commitBookWrites({ staff: owner }, async (tx) => [{ book: await tx.get(db().collection('books').doc(id)), set: { title: doc.title, subtitle: doc.subtitle } }]);
    expect(result!.changed).toEqual([]);
    expect([await stored(id), await version(), (await auditOf(id)).length]).toEqual([doc, v, events]);
  });

  it('a book back in stock releases its waiting alerts in the same transaction: one mail each, the alert gone', async () => {
    const id = await create(everyField({ stock: 0 }));
    const alert = await waitFor(id, 1);
    await commitBookWrites({ order: 'orders/cancelled' }, async (tx) => [{ book: await tx.get(db().collection('books').doc(id)), stockDelta: 1 }]);
    expect((await db().collection('stockAlerts').doc(alert.id).get()).exists).toBe(false);
    const mail = await db().collection('mail').doc(alertMailId(alert.id, alert.nonce)).get();
    expect(mail.data()).toMatchObject({ to: 'reader1@example.com' });
    await mail.ref.delete();
  });

  it(`more than ${INLINE_RESTOCKS} books back in stock at once: their alerts go out after the commit, before the call returns`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < INLINE_RESTOCKS + 1; i++) ids.push(await create(everyField({ stock: 0, title: `Restock ${RUN} ${i}` })));
    const alerts = await Promise.all(ids.map((id, i) => waitFor(id, 10 + i)));
    await commitBookWrites({ staff: owner }, async (tx) => (await tx.getAll(...ids.map((id) => db().collection('books').doc(id)))).map((book) => ({ book, set: { stock: 2 } })));
    for (const alert of alerts) {
      expect((await db().collection('stockAlerts').doc(alert.id).get()).exists).toBe(false);
      const mail = db().collection('mail').doc(alertMailId(alert.id, alert.nonce));
      expect((await mail.get()).exists).toBe(true);
      await mail.delete();
    }
  });
});
