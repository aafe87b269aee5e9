import { FieldValue, type Transaction, type WriteBatch } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';

// One small document, meta/catalog { version, updatedAt }, bumped in the same batch or transaction
// as every book create, edit and delete (an import: once, after its last chunk). Each write of it
// starts the search index's builder (`buildSearchIndex`, search-build.ts, decision 044), which
// publishes a snapshot that `search` instances then load.
// Stock changes (orders) do not bump it: the index holds no stock or price that a page shows
// fresh, and rebuilding at every order would re-read the catalogue.

export const catalogVersionRef = () => db().collection('meta').doc('catalog');
const ref = catalogVersionRef;

export function bumpCatalogVersion(writer: Transaction | WriteBatch): void {
  const data = { version: FieldValue.increment(1), updatedAt: new Date().toISOString() };
  // Transaction.set and WriteBatch.set have the same shape; TypeScript cannot unify the overloads.
  (writer as WriteBatch).set(ref(), data, { merge: true });
}

/** The version bumped on its own: once after an import's chunks (import.repo.ts), which each skip it. */
export async function bumpCatalogVersionNow(): Promise<void> {
  const batch = db().batch();
  bumpCatalogVersion(batch);
  await batch.commit();
}

export async function readCatalogVersion(): Promise<number> {
  const snap = await ref().get();
  countReads(1);
  return (snap.get('version') as number | undefined) ?? 0;
}
