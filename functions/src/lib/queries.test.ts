import { initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { describe, expect, it } from 'vitest';
import { shapeOf } from './queries';

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
