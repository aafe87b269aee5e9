import { initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { describe, expect, it } from 'vitest';
import { describeQuery, IndexNotReadyError, runQuery, shapeOf } from './queries';

// Builds queries with the real SDK (no request is sent) and reads their shape.
const db = getFirestore(initializeApp({ projectId: 'demo-shape' }, 'shape-test'));

describe('shapeOf', () => {
  it('names the collection, each filtered field with its operator, and the order', () => {
    const q = db.collection('books').where('category', '==', 'fiction').where('newPriceCents', '>=', 500).orderBy('newPriceCents', 'desc').limit(3);
    expect(shapeOf(q)).toEqual({
      collection: 'books',
      filters: [
        { field: 'category', op: 'EQUAL' },
        { field: 'newPriceCents', op: 'GREATER_THAN_OR_EQUAL' },
      ],
      orders: [{ field: 'newPriceCents', direction: 'DESCENDING' }],
    });
  });
  it('reads a single filter and no order', () => {
    expect(shapeOf(db.collection('orders').where('uid', '==', 'u'))).toEqual({ collection: 'orders', filters: [{ field: 'uid', op: 'EQUAL' }], orders: [] });
  });
});

describe('a query Firestore refuses for want of an index (FAILED_PRECONDITION)', () => {
  const query = db.collection('books').where('category', '==', 'fiction').orderBy('createdAt', 'desc').limit(12);
  /** The real query, its read answered as production answers it (the SDK's error: gRPC code and details). */
  const failing = (error: Error) => Object.assign(Object.create(query) as typeof query, { get: () => Promise.reject(error) });
  const firestoreError = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details });
  const BUILDING = 'The query requires an index. That index is currently building and cannot be used yet. See its status here: https://console.firebase.google.com/v1/r/project/p/firestore/indexes?create_composite=abc';

  it('becomes an IndexNotReadyError naming the query, with Firestore\'s own words', async () => {
    const error = await runQuery(failing(firestoreError(9, BUILDING))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IndexNotReadyError);
    expect((error as IndexNotReadyError).query).toEqual(shapeOf(query));
    expect((error as IndexNotReadyError).firestoreMessage).toBe(BUILDING);
    expect((error as Error).message).toBe('Firestore index not ready for books where category EQUAL order by createdAt DESCENDING');
  });

  it('leaves every other failure as it was (an outage stays an outage)', async () => {
    const unavailable = firestoreError(14, 'UNAVAILABLE: No connection established');
    await expect(runQuery(failing(unavailable))).rejects.toBe(unavailable);
  });

  it('describes a query without filters or order by its collection alone', () => {
    expect(describeQuery({ collection: 'orders', filters: [], orders: [] })).toBe('orders');
  });
});
