import { assertFails, assertSucceeds, initializeTestEnvironment, type RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from 'vitest';

// Security rules need a rules engine: the official emulators have one, the offline replacements
// (used where Java 21+ and the emulator jars are missing) do not. Elsewhere these report skipped.
const official = process.env.BOOKSTORE_BACKEND === 'official';
const title = official
  ? 'security rules'
  : 'security rules [skipped: the official Firestore and Storage emulators (Java 21+ and their jars) are not available here; the offline replacements have no rules engine]';

describe.skipIf(!official)(title, () => {
  let env: RulesTestEnvironment;
  beforeAll(async () => {
    env = await initializeTestEnvironment({
      projectId: 'demo-bookstore',
      firestore: { rules: readFileSync(new URL('../../firestore.rules', import.meta.url), 'utf8'), host: '127.0.0.1', port: 8080 },
      storage: { rules: readFileSync(new URL('../../storage.rules', import.meta.url), 'utf8'), host: '127.0.0.1', port: 9199 },
    });
    await env.withSecurityRulesDisabled(async (ctx) => {
      await ctx.firestore().doc('rules-test/book').set({ title: 'x' });
      await ctx.storage().ref('covers/rules-test.png').put(new Uint8Array([1, 2, 3]));
    });
  });
  afterAll(async () => env?.cleanup());

  it('Firestore: a signed-out client can read nothing', async () => {
    await assertFails(env.unauthenticatedContext().firestore().doc('rules-test/book').get());
  });
  it('Firestore: a signed-in client can write nothing (books, orders, admins)', async () => {
    const db = env.authenticatedContext('alice', { email: 'alice@example.com' }).firestore();
    await assertFails(db.doc('books/new').set({ title: 'x' }));
    await assertFails(db.doc('orders/new').set({ uid: 'alice' }));
    await assertFails(db.doc('admins/alice').set({ role: 'admin' }));
  });
  it('Storage: anyone can read covers', async () => {
    await assertSucceeds(env.unauthenticatedContext().storage().ref('covers/rules-test.png').getMetadata());
  });
  it('Storage: no client can write covers or anything else', async () => {
    const storage = env.authenticatedContext('alice').storage();
    await assertFails(storage.ref('covers/evil.png').put(new Uint8Array([1])).then((s) => s));
    await assertFails(storage.ref('other/file.txt').put(new Uint8Array([1])).then((s) => s));
  });
});
