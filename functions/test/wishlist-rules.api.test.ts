import { assertFails, assertSucceeds, initializeTestEnvironment, type RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { arrayRemove, arrayUnion, deleteDoc, doc, getDoc, serverTimestamp, setDoc, updateDoc, collection, getDocs, Timestamp } from 'firebase/firestore';
import { readFileSync } from 'node:fs';
import { PORTS } from '../../scripts/lib/env';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Wishlists (issue 28): the one collection a client writes, under firestore.rules. Evaluated by the
// official Firestore emulator, in a project of its own (rules.api.test.ts has another), so clearing
// it never touches the shop's data or another test file's.
const kind = process.env.BOOKSTORE_FIRESTORE_KIND;
const hasRules = kind === 'cloud-sdk' || kind === 'firebase-tools';
const PROJECT = 'demo-bookstore-wishlist-rules';
const MAX = 500;
const ids = (n: number, prefix = 'b') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe.skipIf(!hasRules)(
  hasRules ? 'Firestore security rules: wishlists' : 'Firestore security rules: wishlists [skipped: no official Firestore emulator (Java + jar) here]',
  () => {
    let env: RulesTestEnvironment;
    beforeAll(async () => {
      env = await initializeTestEnvironment({
        projectId: PROJECT,
        firestore: { rules: readFileSync(new URL('../../firestore.rules', import.meta.url), 'utf8'), host: '127.0.0.1', port: PORTS.firestore },
      });
    });
    beforeEach(async () => {
      await env.clearFirestore();
      await env.withSecurityRulesDisabled(async (ctx) => {
        await setDoc(doc(ctx.firestore(), 'wishlists/bob'), { bookIds: ['b1', 'b2'], updatedAt: Timestamp.now() });
      });
    });
    afterAll(async () => env?.cleanup());

    const alice = () => env.authenticatedContext('alice', { email: 'alice@example.com', email_verified: true }).firestore();
    const visitor = () => env.unauthenticatedContext().firestore();

    it('a customer creates, reads, adds to, removes from and deletes their own wishlist', async () => {
      const db = alice();
      const own = doc(db, 'wishlists/alice');
      await assertSucceeds(setDoc(own, { bookIds: ['b1'], updatedAt: serverTimestamp() }));
      await assertSucceeds(updateDoc(own, { bookIds: arrayUnion('b2', 'b3'), updatedAt: serverTimestamp() }));
      await assertSucceeds(setDoc(own, { bookIds: arrayRemove('b1'), updatedAt: serverTimestamp() }, { merge: true }));
      const snap = await assertSucceeds(getDoc(own));
      expect(snap.data()?.bookIds).toEqual(['b2', 'b3']);
      await assertSucceeds(deleteDoc(own));
    });

    it('a wishlist of exactly 500 books is allowed', async () => {
      await assertSucceeds(setDoc(doc(alice(), 'wishlists/alice'), { bookIds: ids(MAX), updatedAt: serverTimestamp() }));
    });

    it("another customer's wishlist can be neither read nor written, by get or by list", async () => {
      const db = alice();
      const bobs = doc(db, 'wishlists/bob');
      await assertFails(getDoc(bobs));
      await assertFails(getDocs(collection(db, 'wishlists')));
      await assertFails(setDoc(bobs, { bookIds: ['b9'], updatedAt: serverTimestamp() }));
      await assertFails(updateDoc(bobs, { bookIds: arrayUnion('b9'), updatedAt: serverTimestamp() }));
      await assertFails(deleteDoc(bobs));
      await assertFails(setDoc(doc(db, 'wishlists/carol'), { bookIds: ['b1'], updatedAt: serverTimestamp() }));
    });

    it('an oversize or malformed wishlist is refused', async () => {
      const own = doc(alice(), 'wishlists/alice');
      await assertFails(setDoc(own, { bookIds: ids(MAX + 1), updatedAt: serverTimestamp() }));
      await assertSucceeds(setDoc(own, { bookIds: ids(MAX), updatedAt: serverTimestamp() }));
      await assertFails(updateDoc(own, { bookIds: arrayUnion('one-more'), updatedAt: serverTimestamp() }));
      await assertFails(setDoc(own, { bookIds: ['b1', 'b1'], updatedAt: serverTimestamp() })); // duplicates
      await assertFails(setDoc(own, { bookIds: 'b1', updatedAt: serverTimestamp() })); // not a list
      await assertFails(setDoc(own, { bookIds: ['b1'], updatedAt: serverTimestamp(), note: 'x' })); // unknown field
      await assertFails(setDoc(own, { bookIds: ['b1'], updatedAt: Timestamp.fromMillis(0) })); // not the server's time
      await assertFails(setDoc(own, { bookIds: ['b1'] })); // no time
    });

    it('every entry is checked (issue 36): only strings of the book-id shape, however the list is written', async () => {
      const own = doc(alice(), 'wishlists/alice');
      const hostile: [string, unknown[]][] = [
        ['a 900,000-character string', ['x'.repeat(900_000)]],
        ['a 65-character id', ['a'.repeat(65)]],
        ['an empty string', ['']],
        ['a path', ['books/b1']],
        ['a reserved id', ['__name__']],
        ['a space', ['b 1']],
        ['a separator smuggled in', ['b1/b2']],
        ['a number', [42]],
        ['a map', [{ id: 'b1' }]],
        ['null', [null]],
        ['a boolean', [true]],
        ['one bad among good ones', [...ids(10), 'not ok!']],
      ];
      for (const [what, bookIds] of hostile) {
        await assertFails(setDoc(own, { bookIds, updatedAt: serverTimestamp() })).catch((error: Error) => {
          throw new Error(`${what}: ${error.message}`);
        });
      }
      // Added one at a time to a valid list, the same entries are refused too.
      await assertSucceeds(setDoc(own, { bookIds: ['b1'], updatedAt: serverTimestamp() }));
      for (const [what, bookIds] of hostile) {
        await assertFails(updateDoc(own, { bookIds: arrayUnion(...bookIds), updatedAt: serverTimestamp() })).catch((error: Error) => {
          throw new Error(`arrayUnion ${what}: ${error.message}`);
        });
      }
      expect((await getDoc(own)).data()?.bookIds).toEqual(['b1']);
      // The shapes a book id may take are all allowed: the longest, underscores and dashes, one underscore.
      const fine = ['a'.repeat(64), '_', '_a', 'a__b', '-x-', 'isbn-9780000000002', 'Zz09_-'];
      await assertSucceeds(setDoc(own, { bookIds: fine, updatedAt: serverTimestamp() }));
      await assertSucceeds(setDoc(own, { bookIds: [], updatedAt: serverTimestamp() }));
    });

    it('a signed-out visitor reads and writes no wishlist', async () => {
      const db = visitor();
      await assertFails(getDoc(doc(db, 'wishlists/bob')));
      await assertFails(getDocs(collection(db, 'wishlists')));
      await assertFails(setDoc(doc(db, 'wishlists/bob'), { bookIds: ['b9'], updatedAt: serverTimestamp() }));
      await assertFails(deleteDoc(doc(db, 'wishlists/bob')));
    });

    it('the server-only collections of issue 28 stay closed to every client', async () => {
      for (const db of [alice(), visitor()]) {
        for (const path of ['stockAlerts/b1_x', 'newsletter/x', 'mailSuppressions/x', 'rateLimits/x']) {
          await assertFails(getDoc(doc(db, path)));
          await assertFails(setDoc(doc(db, path), { email: 'alice@example.com' }));
        }
      }
    });
  },
);
