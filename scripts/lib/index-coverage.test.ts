import { describe, expect, it } from 'vitest';
import { missingIndexes, requiredIndex, type IndexFile } from './index-coverage';

const file: IndexFile = {
  indexes: [
    {
      collectionGroup: 'orders',
      queryScope: 'COLLECTION',
      fields: [
        { fieldPath: 'uid', order: 'ASCENDING' },
        { fieldPath: 'createdAt', order: 'DESCENDING' },
      ],
    },
  ],
};
const eq = (field: string) => ({ field, op: 'EQUAL' });

describe('composite index coverage', () => {
  it('needs no composite index for equality filters alone or one ordered field', () => {
    expect(requiredIndex({ collection: 'books', filters: [eq('a'), eq('b')], orders: [] })).toBeNull();
    expect(requiredIndex({ collection: 'books', filters: [], orders: [{ field: 'createdAt', direction: 'DESCENDING' }] })).toBeNull();
    expect(requiredIndex({ collection: 'books', filters: [{ field: 'stock', op: 'LESS_THAN_OR_EQUAL' }], orders: [] })).toBeNull();
  });

  it('accepts a query its declared index serves', () => {
    expect(missingIndexes([{ collection: 'orders', filters: [eq('uid')], orders: [{ field: 'createdAt', direction: 'DESCENDING' }] }], file)).toEqual([]);
  });

  it('names a query whose index is missing, or declared in the other direction', () => {
    expect(missingIndexes([{ collection: 'orders', filters: [eq('email')], orders: [{ field: 'createdAt', direction: 'DESCENDING' }] }], file)).toEqual([
      'orders: email ==, createdAt DESCENDING',
    ]);
    expect(missingIndexes([{ collection: 'orders', filters: [eq('uid')], orders: [{ field: 'createdAt', direction: 'ASCENDING' }] }], file)).toHaveLength(1);
  });

  it('counts an inequality filter as the first order, as Firestore does', () => {
    expect(requiredIndex({ collection: 'books', filters: [eq('category'), { field: 'price', op: 'GREATER_THAN' }], orders: [] })).toEqual({
      collection: 'books',
      equality: ['category'],
      orders: [{ field: 'price', direction: 'ASCENDING' }],
    });
  });
});
