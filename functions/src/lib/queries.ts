import { appendFileSync } from 'node:fs';
import { FieldPath, type Query, type QueryDocumentSnapshot, type QuerySnapshot, type Transaction } from 'firebase-admin/firestore';
import { countAggregation, countReads } from './read-counter';

// Every Firestore query of the function runs through here, for three reasons:
// - the read counter (X-Firestore-Reads in the emulator) sees every document a request reads;
// - in tests, each query's shape is appended to BOOKSTORE_QUERY_LOG, and a check fails if
//   firestore.indexes.json lacks a composite index that production would demand (the emulator
//   answers any query, index or not);
// - in production a query whose composite index is missing or still building fails with
//   FAILED_PRECONDITION: it becomes an IndexNotReadyError naming the query, which the error
//   middleware answers 503 with Retry-After (lib/errors.ts), not a 500.

export interface QueryShape {
  collection: string;
  filters: { field: string; op: string }[];
  orders: { field: string; direction: 'ASCENDING' | 'DESCENDING' }[];
}

interface StructuredFilter {
  fieldFilter?: { field: { fieldPath: string }; op: string };
  unaryFilter?: { field: { fieldPath: string }; op: string };
  compositeFilter?: { filters: StructuredFilter[] };
}

function flatten(filter: StructuredFilter | undefined): QueryShape['filters'] {
  if (!filter) return [];
  if (filter.compositeFilter) return filter.compositeFilter.filters.flatMap(flatten);
  const f = filter.fieldFilter ?? filter.unaryFilter;
  return f ? [{ field: f.field.fieldPath, op: f.op }] : [];
}

/** The shape of a query (collection, filtered fields and operators, order), without its values. */
export function shapeOf(query: Query): QueryShape {
  // toStructuredQuery() is the SDK's own serialisation of a query (the request it sends).
  const structured = (query as unknown as { toStructuredQuery(): unknown }).toStructuredQuery() as {
    from: { collectionId: string }[];
    where?: StructuredFilter;
    orderBy?: { field: { fieldPath: string }; direction: 'ASCENDING' | 'DESCENDING' }[];
  };
  return {
    collection: structured.from[0]!.collectionId,
    filters: flatten(structured.where),
    orders: (structured.orderBy ?? []).map((o) => ({ field: o.field.fieldPath, direction: o.direction ?? 'ASCENDING' })),
  };
}

/** gRPC FAILED_PRECONDITION: on a query, Firestore's "The query requires an index" (missing or still building). */
const FAILED_PRECONDITION = 9;

/** A query Firestore refused for want of a composite index (missing, or READY not yet). */
export class IndexNotReadyError extends Error {
  constructor(
    readonly query: QueryShape,
    /** Firestore's own words: they carry the console link that creates or shows the index. */
    readonly firestoreMessage: string,
  ) {
    super(`Firestore index not ready for ${describeQuery(query)}`);
  }
}

/** A query's shape in one line for a log: `books where category EQUAL, inStock EQUAL order by createdAt DESCENDING`. */
export function describeQuery(shape: QueryShape): string {
  const where = shape.filters.map((f) => `${f.field} ${f.op}`).join(', ');
  const order = shape.orders.map((o) => `${o.field} ${o.direction}`).join(', ');
  return [shape.collection, where && `where ${where}`, order && `order by ${order}`].filter(Boolean).join(' ');
}

/** Runs one read of `query`, turning Firestore's FAILED_PRECONDITION into an IndexNotReadyError. */
async function indexed<T>(query: Query, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== FAILED_PRECONDITION) throw error;
    const details = (error as { details?: unknown }).details;
    throw new IndexNotReadyError(shapeOf(query), typeof details === 'string' && details ? details : String((error as Error).message));
  }
}

function record(query: Query): void {
  const log = process.env.BOOKSTORE_QUERY_LOG;
  if (log) appendFileSync(log, `${JSON.stringify(shapeOf(query))}\n`);
}

export async function runQuery(query: Query): Promise<QuerySnapshot> {
  record(query);
  const snap = await indexed(query, () => query.get());
  countReads(snap.size);
  return snap;
}

export async function runCount(query: Query): Promise<number> {
  record(query);
  const count = (await indexed(query, () => query.count().get())).data().count;
  countAggregation(count);
  return count;
}

/** A query inside a transaction (its reads lock what they find), recorded and counted like runQuery. */
export async function runTxQuery(tx: Transaction, query: Query): Promise<QuerySnapshot> {
  record(query);
  const snap = await indexed(query, () => tx.get(query));
  countReads(snap.size);
  return snap;
}

/**
 * Every document of `query`, `pageSize` at a time, ordered by `field` (when given) then id, so the
 * pages never overlap: for reads bounded by their own scope (a day's sales, a shift's), not lists.
 */
export async function runPagedQuery(query: Query, field?: string, pageSize = 500): Promise<QueryDocumentSnapshot[]> {
  const docs: QueryDocumentSnapshot[] = [];
  const ordered = (field ? query.orderBy(field) : query).orderBy(FieldPath.documentId()).limit(pageSize);
  let after: QueryDocumentSnapshot | undefined;
  for (;;) {
    const snap = await runQuery(after ? ordered.startAfter(after) : ordered);
    docs.push(...snap.docs);
    if (snap.size < pageSize) return docs;
    after = snap.docs[snap.size - 1];
  }
}
