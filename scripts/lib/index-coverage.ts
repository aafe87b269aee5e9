import type { QueryShape } from '../../functions/src/lib/queries';

// Which composite index production Firestore demands for a query, and whether firestore.indexes.json
// declares it. The emulators answer every query without indexes, so this is checked from the shapes
// of the queries the function really ran during the tests (BOOKSTORE_QUERY_LOG).
// Rules: https://firebase.google.com/docs/firestore/query-data/index-overview

interface IndexField {
  fieldPath: string;
  order?: 'ASCENDING' | 'DESCENDING';
  arrayConfig?: 'CONTAINS';
}
export interface IndexFile {
  indexes: { collectionGroup: string; queryScope: string; fields: IndexField[] }[];
}

const EQUALITY = new Set(['EQUAL', 'IN', 'ARRAY_CONTAINS', 'ARRAY_CONTAINS_ANY', 'IS_NULL', 'IS_NAN']);

/** The composite index a query needs, or null when single-field indexes serve it. */
export function requiredIndex(shape: QueryShape): { collection: string; equality: string[]; orders: QueryShape['orders'] } | null {
  const equality = [...new Set(shape.filters.filter((f) => EQUALITY.has(f.op)).map((f) => f.field))];
  const orders = shape.orders.filter((o) => o.field !== '__name__');
  // Firestore orders by an inequality field first when the query does not say so itself.
  for (const f of shape.filters) {
    if (!EQUALITY.has(f.op) && !orders.some((o) => o.field === f.field)) orders.unshift({ field: f.field, direction: 'ASCENDING' });
  }
  const ordered = orders.filter((o) => !equality.includes(o.field));
  if (ordered.length === 0) return null; // equality filters alone merge single-field indexes
  if (equality.length === 0 && ordered.length === 1) return null; // one field, either direction
  return { collection: shape.collection, equality, orders: ordered };
}

function declares(file: IndexFile, need: NonNullable<ReturnType<typeof requiredIndex>>): boolean {
  return file.indexes.some((index) => {
    if (index.collectionGroup !== need.collection || index.queryScope !== 'COLLECTION') return false;
    const fields = index.fields.filter((f) => f.fieldPath !== '__name__');
    if (fields.length !== need.equality.length + need.orders.length) return false;
    const head = fields.slice(0, need.equality.length).map((f) => f.fieldPath).sort();
    const tail = fields.slice(need.equality.length);
    return (
      head.join() === [...need.equality].sort().join() &&
      tail.every((f, i) => f.fieldPath === need.orders[i]!.field && f.order === need.orders[i]!.direction)
    );
  });
}

/** One line per distinct query shape that has no declared index, ready to print. */
export function missingIndexes(shapes: QueryShape[], file: IndexFile): string[] {
  const missing = new Set<string>();
  for (const shape of shapes) {
    const need = requiredIndex(shape);
    if (!need || declares(file, need)) continue;
    const fields = [...need.equality.map((f) => `${f} ==`), ...need.orders.map((o) => `${o.field} ${o.direction}`)];
    missing.add(`${need.collection}: ${fields.join(', ')}`);
  }
  return [...missing];
}
