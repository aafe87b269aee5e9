import { BOOK_FIELD_NAMES, BOOK_FIELD_SPECS, can, ROLES, storedName, type BookFieldName, type Role } from '@bookstore/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchangedIn, http, newBook } from './helpers';

// Hostile, field by field (issue 37): every field of the book's registry edited by every role over
// HTTP through Hosting. A role that may not change the field gets 403 with nothing changed (no
// field, no audit event: a bookseller cannot slip a change past the permissions); a role that may
// gets 200, the field stored, and exactly one audit event naming that field before and after.
// A field added to the registry without a value here does not compile (CHANGES is keyed by every field).

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const PASSWORD = 'margins-and-footnotes-9';

let isbnSeq = 0;
/** A fresh valid ISBN-13 under 979-16 (other files use 979-10 to 979-13 and 979-8). */
function isbn(): string {
  const body = `97916${String(Date.now() % 1e5).padStart(5, '0')}${String((isbnSeq += 1) % 100).padStart(2, '0')}`.slice(0, 12);
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

/** Two valid values of each field: an edit sets whichever the book does not hold. */
const CHANGES: Record<BookFieldName, () => [unknown, unknown]> = {
  title: () => [`Field Test ${RUN}`, `Field Test ${RUN} Retitled`],
  subtitle: () => ['A First Subtitle', 'A Second Subtitle'],
  author: () => ['Ada Field', 'Grace Field'],
  description: () => ['One description.', 'Another description.'],
  category: () => ['fiction', 'horror'],
  trending: () => [false, true],
  oldPrice: () => [20, 33.33],
  newPrice: () => [12.5, 7.77],
  isbn: () => [isbn(), isbn()],
  stock: () => [5, 42],
  weightGrams: () => [450, 999],
  preorderLimit: () => [3, 20],
  reorderMin: () => [2, 6],
  publisher: () => ['Door Press', 'Window Press'],
  publishedOn: () => ['2001-02', '1999-12-31'],
  pages: () => [200, 321],
  format: () => ['paperback', 'hardcover'],
  language: () => ['en-GB', 'fr'],
  coverImage: () => ['book-2', 'book-7'],
};

const tokens = {} as Record<Role, string>;
const usernames = {} as Record<Role, string>;

beforeAll(async () => {
  for (const role of ROLES) {
    usernames[role] = `fields-${role}-${RUN}`;
    const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username: usernames[role], displayName: `Fields ${role}`, role, password: PASSWORD } });
    if (made.status !== 201) throw new Error(`staff ${usernames[role]}: ${made.status} ${JSON.stringify(made.body)}`);
    tokens[role] = (await http('/api/auth/admin', { method: 'POST', json: { username: usernames[role], password: PASSWORD } })).body.token;
  }
});

const eventsOf = async (id: string, actor: string) => (await db().collection('audit').where('target', '==', `books/${id}`).where('actor', '==', actor).get()).docs.map((d) => d.data());

describe('every field, every role (PUT /api/books/edit/:id)', () => {
  for (const name of BOOK_FIELD_NAMES) {
    const spec = BOOK_FIELD_SPECS[name];
    it(`${name} (${spec.write}): ${ROLES.map((role) => `${role} ${can(role, spec.write) ? 200 : 403}`).join(', ')}`, async () => {
      const values = CHANGES[name]();
      // A book with every field set, made by the demo owner.
      const initial = Object.fromEntries(BOOK_FIELD_NAMES.map((field) => [field, field === name ? values[0] : CHANGES[field]()[0]]));
      const created = await http('/api/books/create-book', { method: 'POST', token: await adminToken(), json: newBook(initial) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.book._id as string;
      const ref = db().collection('books').doc(id);

      for (const role of ROLES) {
        const book = (await http(`/api/books/${id}`, { token: tokens[role] })).body;
        const { _id, createdAt: _c, updatedAt: _u, ...body } = book;
        const next = values.find((v) => JSON.stringify(v) !== JSON.stringify(book[name]))!;
        const edit = () => http(`/api/books/edit/${_id}`, { method: 'PUT', token: tokens[role], json: { ...body, [name]: next } });
        if (!can(role, spec.write)) {
          const refused = await expectUnchangedIn([ref, db().collection('audit').where('target', '==', `books/${id}`)], edit);
          expect(refused.status, `${role} editing ${name}`).toBe(403);
          expect(refused.body).toEqual({ message: 'Your role does not allow this', code: 'FORBIDDEN' });
          expect(await eventsOf(id, usernames[role])).toEqual([]);
          continue;
        }
        const before = (await ref.get()).data()!;
        const res = await edit();
        expect(res.status, `${role} editing ${name}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body.book[name]).toEqual(next);
        const after = (await ref.get()).data()!;
        const stored = storedName(name);
        expect(after[stored]).not.toEqual(before[stored]);
        // One event by this person in this role, naming exactly this field, before and after.
        const events = await eventsOf(id, usernames[role]);
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ role, target: `books/${id}`, changes: { [stored]: { before: before[stored], after: after[stored] } } });
        expect(Object.keys(events[0]!.changes)).toEqual([stored]);
      }
      await http(`/api/books/${id}`, { method: 'DELETE', token: await adminToken() });
    });
  }
});
