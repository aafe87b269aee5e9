import { assertFails, assertSucceeds, initializeTestEnvironment, type RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { readFileSync } from 'node:fs';
import { PORTS } from '../../scripts/lib/env';
import { afterAll, beforeAll, describe, it } from 'vitest';

// Security rules, evaluated by the official Firestore emulator (the npm stand-in has no rules engine
// and is used only where no Java or jar exists; scripts/test.ts refuses it where the jar exists).
// A project of its own, so loading rules and seeding here never touch the shop's data.
const kind = process.env.BOOKSTORE_FIRESTORE_KIND;
const hasRules = kind === 'cloud-sdk' || kind === 'firebase-tools';
const PROJECT = 'demo-bookstore-rules';

describe.skipIf(!hasRules)(
  hasRules ? 'Firestore security rules' : 'Firestore security rules [skipped: no official Firestore emulator (Java + jar) here; the npm stand-in has no rules engine]',
  () => {
    let env: RulesTestEnvironment;
    // Everything the function stores. Only books (public catalogue data, get only) and each
    // customer's own orders are readable; nothing is writable by a client.
    const docs = {
      book: 'books/b1',
      ownOrder: 'orders/o-alice',
      othersOrder: 'orders/o-bob',
      admin: 'admins/admin',
      loginAttempt: 'loginAttempts/abc',
      counters: 'stats/counters-0',
      mail: 'mail/m1',
      ownAccount: 'customers/alice', // her open-order count and limit
      meta: 'meta/catalog',
      staff: 'admins/ada', // a staff member: role, password hash, TOTP secret
      auditEvent: 'audit/e1',
      settings: 'settings/shop',
      ownSpecial: 'specialOrders/s-alice', // issue 41
      othersSpecial: 'specialOrders/s-bob',
      preorderLine: 'preorders/o-alice-b1',
      bookCost: 'bookCosts/b1', // issue 56: what a copy cost the shop
      receiptCost: 'receiptCosts/r1',
      purchaseOrder: 'purchaseOrders/po1',
      receipt: 'receipts/r1',
      unlistedBook: 'unlistedBooks/9780306406157', // decision 056: received, not in the catalogue, never a shopper's
    };
    const serverOnly = [docs.admin, docs.loginAttempt, docs.counters, docs.mail, docs.meta, docs.ownAccount, docs.staff, docs.auditEvent, docs.settings];
    beforeAll(async () => {
      env = await initializeTestEnvironment({
        projectId: PROJECT,
        firestore: { rules: readFileSync(new URL('../../firestore.rules', import.meta.url), 'utf8'), host: '127.0.0.1', port: PORTS.firestore },
      });
      await env.clearFirestore();
      await env.withSecurityRulesDisabled(async (ctx) => {
        const db = ctx.firestore();
        await db.doc(docs.book).set({ title: 'x', newPriceCents: 100, stock: 2, inStock: true });
        await db.doc(docs.ownOrder).set({ uid: 'alice', email: 'alice@example.com', totalCents: 100, status: 'pending', createdAt: '2026-11-22T01:00:00.000Z' });
        await db.doc(docs.othersOrder).set({ uid: 'bob', email: 'bob@example.com', totalCents: 100, status: 'pending', createdAt: '2026-11-22T02:00:00.000Z' });
        await db.doc(docs.admin).set({ username: 'admin', passwordHash: 'h' });
        await db.doc(docs.loginAttempt).set({ failures: 1 });
        await db.doc(docs.counters).set({ orders: 1 });
        await db.doc(docs.mail).set({ to: 'alice@example.com' });
        await db.doc(docs.ownAccount).set({ openOrders: 10 });
        await db.doc(docs.meta).set({ version: 1 });
        await db.doc(docs.staff).set({ username: 'ada', role: 'manager', passwordHash: 'h', totpSecret: 'JBSWY3DPEHPK3PXP' });
        await db.doc(docs.auditEvent).set({ actor: 'ada', role: 'manager', action: 'book.price', target: 'books/b1', at: '2026-11-23T00:00:00.000Z', changes: {} });
        await db.doc(docs.settings).set({ requireTotp: true });
        await db.doc(docs.ownSpecial).set({ uid: 'alice', email: 'alice@example.com', isbn: '9780306406157', status: 'requested', createdAt: '2026-11-22T01:00:00.000Z' });
        await db.doc(docs.othersSpecial).set({ uid: 'bob', email: 'bob@example.com', isbn: '9780306406157', status: 'quoted', createdAt: '2026-11-22T02:00:00.000Z' });
        await db.doc(docs.preorderLine).set({ uid: 'alice', orderId: 'o-alice', bookId: 'b1', state: 'waiting' });
        await db.doc(docs.bookCost).set({ avgCostCents: 950, updatedAt: '2026-12-01T00:00:00.000Z' });
        await db.doc(docs.receiptCost).set({ lines: [{ isbn: '9780306406157', bookId: 'b1', quantity: 4, unitCostCents: 950 }] });
        await db.doc(docs.purchaseOrder).set({ supplierId: 's1', status: 'sent', lines: [{ isbn: '9780306406157', quantity: 4, unitCostCents: 950 }] });
        await db.doc(docs.receipt).set({ lines: [{ isbn: '9780306406157', received: 4 }] });
        await db.doc(docs.unlistedBook).set({ isbn: '9780306406157', title: 'Unlisted', stock: 3, createdAt: '2026-12-01T00:00:00.000Z', updatedAt: '2026-12-01T00:00:00.000Z' });
      });
    });
    afterAll(async () => env?.cleanup());

    const visitor = () => env.unauthenticatedContext().firestore();
    const alice = () => env.authenticatedContext('alice', { email: 'alice@example.com', email_verified: true }).firestore();

    it("anyone, signed out or in, can get a book's public stock (what a book page and the cart follow)", async () => {
      for (const db of [visitor(), alice()]) {
        const snap = await assertSucceeds(db.doc(docs.book).get());
        if (snap.data()?.stock !== 2) throw new Error('the book was not read');
      }
    });

    it('the catalogue cannot be listed straight from Firestore (the function pages it)', async () => {
      await assertFails(visitor().collection('books').get());
      await assertFails(alice().collection('books').limit(5).get());
    });

    it('a signed-out visitor reads no order, by get or by list, and nothing server-only', async () => {
      await assertFails(visitor().doc(docs.ownOrder).get());
      await assertFails(visitor().collection('orders').get());
      await assertFails(visitor().collection('orders').where('uid', '==', 'alice').get());
      for (const path of serverOnly) await assertFails(visitor().doc(path).get());
      for (const name of ['admins', 'loginAttempts', 'loginCeilings', 'loginDevices', 'lookupLimits', 'stats', 'mail', 'meta', 'customers', 'audit', 'settings']) await assertFails(visitor().collection(name).get());
    });

    it('a signed-in customer gets and lists their own orders (the uid filter, newest first, limited)', async () => {
      const own = await assertSucceeds(alice().doc(docs.ownOrder).get());
      if (own.data()?.uid !== 'alice') throw new Error('own order not read');
      const list = await assertSucceeds(alice().collection('orders').where('uid', '==', 'alice').orderBy('createdAt', 'desc').limit(10).get());
      if (list.docs.map((d) => d.id).join() !== 'o-alice') throw new Error(`listed ${list.docs.map((d) => d.id).join()}`);
    });

    it("a signed-in customer cannot read another customer's order, by get or by list", async () => {
      await assertFails(alice().doc(docs.othersOrder).get());
      await assertFails(alice().collection('orders').where('uid', '==', 'bob').get());
    });

    it('a list of orders without the uid filter is refused, even though every order it would find might be theirs', async () => {
      await assertFails(alice().collection('orders').get());
      await assertFails(alice().collection('orders').orderBy('createdAt', 'desc').limit(10).get());
      await assertFails(alice().collection('orders').where('email', '==', 'alice@example.com').get());
      await assertFails(alice().collection('orders').where('uid', 'in', ['alice', 'bob']).get());
    });

    it('special orders (issue 41): a shopper reads only their own requests; nobody writes one; pre-order lines are server-only', async () => {
      await assertSucceeds(alice().doc(docs.ownSpecial).get());
      await assertSucceeds(alice().collection('specialOrders').where('uid', '==', 'alice').orderBy('createdAt', 'desc').limit(10).get());
      await assertFails(alice().doc(docs.othersSpecial).get());
      await assertFails(alice().collection('specialOrders').where('uid', '==', 'bob').get());
      await assertFails(alice().collection('specialOrders').limit(10).get());
      await assertFails(visitor().doc(docs.ownSpecial).get());
      await assertFails(alice().doc(docs.ownSpecial).update({ status: 'accepted', priceCents: 1 }));
      await assertFails(alice().doc('specialOrders/new').set({ uid: 'alice', status: 'quoted' }));
      await assertFails(alice().doc(docs.preorderLine).get());
      await assertFails(alice().collection('preorders').where('uid', '==', 'alice').get());
    });

    it('costs (issue 56) are closed to shoppers and anonymous callers alike, by get or by list, and to writes', async () => {
      const claimer = env.authenticatedContext('ada', { role: 'owner', admin: true, email: 'ada@example.com', email_verified: true }).firestore();
      for (const db of [visitor(), alice(), claimer]) {
        for (const path of [docs.bookCost, docs.receiptCost, docs.purchaseOrder, docs.receipt, docs.unlistedBook]) await assertFails(db.doc(path).get());
        for (const name of ['bookCosts', 'receiptCosts', 'purchaseOrders', 'receipts', 'suppliers', 'supplierReturns', 'supplierReceipts', 'unlistedBooks']) await assertFails(db.collection(name).limit(10).get());
        await assertFails(db.doc(docs.unlistedBook).set({ isbn: '9780306406157', title: 'Forged', stock: 1 }));
        await assertFails(db.collection('bookCosts').where('avgCostCents', '>', 0).get());
        await assertFails(db.doc(docs.bookCost).set({ avgCostCents: 1 }));
        await assertFails(db.doc('receiptCosts/forged').set({ lines: [] }));
      }
      // The book itself, public, carries no cost.
      const book = await assertSucceeds(visitor().doc(docs.book).get());
      if (Object.keys(book.data() ?? {}).some((k) => /cost/i.test(k))) throw new Error('a cost on the public book');
    });

    it('a signed-in customer cannot read admins, login attempts, counters, mail or meta', async () => {
      for (const path of serverOnly) await assertFails(alice().doc(path).get());
    });

    it('the audit log and staff accounts are closed to every client, whatever claims its token carries', async () => {
      // Even a token claiming a staff role (custom claims are not how staff sign in, but a forged
      // or mistaken claim must not open anything): the API is the only way in.
      const claimer = env.authenticatedContext('ada', { role: 'owner', admin: true, email: 'ada@example.com', email_verified: true }).firestore();
      for (const db of [visitor(), alice(), claimer]) {
        await assertFails(db.doc(docs.auditEvent).get());
        await assertFails(db.collection('audit').orderBy('at', 'desc').limit(10).get());
        await assertFails(db.collection('audit').where('actor', '==', 'ada').get());
        await assertFails(db.doc(docs.staff).get());
        await assertFails(db.collection('admins').where('role', '==', 'owner').get());
        await assertFails(db.doc('audit/forged').set({ actor: 'ada', action: 'book.delete', target: 'books/b1', at: '2026-11-23T00:00:00.000Z' }));
        await assertFails(db.doc(docs.auditEvent).update({ actor: 'someone-else' }));
        await assertFails(db.doc(docs.auditEvent).delete());
        await assertFails(db.doc(docs.staff).update({ role: 'owner' }));
        await assertFails(db.doc(docs.settings).set({ requireTotp: false }));
      }
    });

    it('no client, signed in or not, can create, change or delete anything (not even its own order)', async () => {
      for (const db of [visitor(), alice()]) {
        await assertFails(db.doc('books/new').set({ title: 'x' }));
        await assertFails(db.doc(docs.book).update({ stock: 99 }));
        await assertFails(db.doc(docs.book).delete());
        await assertFails(db.doc('orders/new').set({ uid: 'alice' }));
        await assertFails(db.doc(docs.ownOrder).update({ status: 'delivered' }));
        await assertFails(db.doc(docs.ownOrder).delete());
        await assertFails(db.doc('admins/alice').set({ role: 'admin' }));
        await assertFails(db.doc(docs.loginAttempt).delete());
        await assertFails(db.doc(docs.counters).set({ orders: 0 }));
        await assertFails(db.doc('mail/new').set({ to: 'x@example.com' }));
        await assertFails(db.doc(docs.meta).set({ version: 2 }));
      }
    });
  },
);

// Storage rules need the Storage rules runtime, a Java download that only firebase-tools' own setup has.
const storageRules = kind === 'firebase-tools';
describe.skipIf(!storageRules)(
  storageRules
    ? 'Storage security rules'
    : "Storage security rules [skipped: the Storage rules runtime (cloud-storage-rules-runtime, a Java download) is not on these machines; Storage runs on firebase-tools' emulator code without rules]",
  () => {
    let env: RulesTestEnvironment;
    beforeAll(async () => {
      env = await initializeTestEnvironment({
        projectId: PROJECT,
        storage: { rules: readFileSync(new URL('../../storage.rules', import.meta.url), 'utf8'), host: '127.0.0.1', port: PORTS.storage },
      });
      await env.withSecurityRulesDisabled(async (ctx) => {
        await ctx.storage().ref('covers/rules-test.png').put(new Uint8Array([1, 2, 3]));
      });
    });
    afterAll(async () => env?.cleanup());

    it('anyone can read covers', async () => {
      await assertSucceeds(env.unauthenticatedContext().storage().ref('covers/rules-test.png').getMetadata());
    });
    it('no one can list covers/ (one cover at a time only)', async () => {
      await assertFails(env.unauthenticatedContext().storage().ref('covers').listAll());
      await assertFails(env.authenticatedContext('alice').storage().ref('covers').list({ maxResults: 10 }));
    });
    it('no client can write covers or anything else', async () => {
      const storage = env.authenticatedContext('alice').storage();
      await assertFails(storage.ref('covers/evil.png').put(new Uint8Array([1])).then((s) => s));
      await assertFails(storage.ref('other/file.txt').put(new Uint8Array([1])).then((s) => s));
    });
  },
);
