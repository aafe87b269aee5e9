import { FieldValue, type Transaction } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { COUNTER_SHARDS, COUNTERS_COLLECTION, counterShardId, randomShard, sumShards, type CounterDelta } from './counters';

export const counterShardRef = (shard: number) => db().collection(COUNTERS_COLLECTION).doc(counterShardId(shard));

/** Adds `delta` to one random shard inside `tx` (blind increments: no read, so no lock on the shard). */
export function addToCounters(tx: Transaction, delta: CounterDelta): void {
  if (Object.keys(delta).length === 0) return;
  const increments = Object.fromEntries(Object.entries(delta).map(([field, by]) => [field, FieldValue.increment(by)]));
  tx.set(counterShardRef(randomShard()), increments, { merge: true });
}

/** Every counter, summed over the shards: COUNTER_SHARDS document reads, whatever the number of orders. */
export async function readCounterTotals(): Promise<CounterDelta> {
  const refs = Array.from({ length: COUNTER_SHARDS }, (_, shard) => counterShardRef(shard));
  const snaps = await db().getAll(...refs);
  countReads(snaps.length);
  return sumShards(snaps.map((s) => s.data()));
}
