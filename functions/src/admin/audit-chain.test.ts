import { describe, expect, it } from 'vitest';
import { canonicalJson, EMPTY_HEAD, eventHash, GENESIS_HASH, unchainedProblems, verifyChain, type ChainHead, type StoredEvent } from './audit-chain';

/** A chain of `n` events as appendAudit stores them, and its head. */
function chain(n: number): { events: StoredEvent[]; head: ChainHead } {
  const events: StoredEvent[] = [];
  let head = EMPTY_HEAD;
  for (let seq = 1; seq <= n; seq++) {
    const fields = { seq, prevHash: head.hash, actor: 'ann', role: 'owner', action: 'book.price', target: `books/b${seq}`, at: `2026-11-25T12:00:0${seq}.000Z`, changes: { newPriceCents: { before: 100 * seq, after: 99 } } };
    const hash = eventHash(fields);
    events.push({ id: `e${seq}`, ...fields, hash });
    head = { seq, hash };
  }
  return { events, head };
}

describe('the audit hash chain', () => {
  it('hashes the same event the same way whatever the order of its keys (Firestore keeps none)', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":1}]},"b":1}');
    const { events } = chain(1);
    const e = events[0]!;
    const shuffled = { changes: e.changes!, at: e.at!, target: e.target!, action: e.action!, role: e.role!, actor: e.actor!, prevHash: e.prevHash!, seq: e.seq! };
    expect(eventHash(shuffled)).toBe(e.hash);
    expect(e.prevHash).toBe(GENESIS_HASH);
  });

  it('an intact chain holds', async () => {
    const { events, head } = chain(5);
    expect(await verifyChain(events, head)).toEqual({ ok: true, checked: 5, head, problems: [] });
    expect((await verifyChain([], EMPTY_HEAD)).ok).toBe(true);
  });

  it('an edited field shows (hostile: a price change made to read as someone else\'s)', async () => {
    const { events, head } = chain(4);
    events[1] = { ...events[1]!, actor: 'bob' };
    const report = await verifyChain(events, head);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(['event 2 (audit/e2): its fields do not match its hash (edited)']);
  });

  it('an edit whose hash was recomputed shows at the next event', async () => {
    const { events, head } = chain(4);
    const edited = { ...events[1]!, changes: {} };
    edited.hash = eventHash(edited as never);
    events[1] = edited;
    expect((await verifyChain(events, head)).problems).toEqual([expect.stringMatching(/^event 3 \(audit\/e3\): its prevHash is not the hash of event 2/)]);
  });

  it('a deleted event, a deleted newest event and a repeated seq show', async () => {
    const { events, head } = chain(5);
    expect((await verifyChain(events.filter((e) => e.seq !== 3), head)).problems).toEqual([
      'events 3-3 are missing (deleted) before event 4 (audit/e4)',
      expect.stringMatching(/^event 4 \(audit\/e4\): its prevHash is not the hash of event 2/),
    ]);
    expect((await verifyChain(events.slice(0, 4), head)).problems).toEqual(['the head (meta/auditHead) says event 5 is the newest, the log ends at 4 (the newest events were deleted)']);
    expect((await verifyChain([...events.slice(0, 3), { ...events[2]!, id: 'copy' }, ...events.slice(3)], head)).problems[0]).toBe('event 3 (audit/copy): a second event with this seq');
  });

  it('a whole chain rewritten after an anchor does not pass the anchor', async () => {
    const { events, head } = chain(5);
    const anchor = { seq: 3, hash: events[2]!.hash! };
    expect((await verifyChain(events, head, anchor)).ok).toBe(true);
    // Rewritten from event 2 on, hashes and head recomputed: consistent, but not the anchored event 3.
    const rewritten = chain(5);
    for (const e of rewritten.events) e.actor = 'mallory';
    let prev = rewritten.events[0]!.prevHash!;
    for (const e of rewritten.events) {
      e.prevHash = prev;
      e.hash = eventHash(e as never);
      prev = e.hash;
    }
    const forgedHead = { seq: 5, hash: prev };
    expect((await verifyChain(rewritten.events, forgedHead)).ok).toBe(true);
    const report = await verifyChain(rewritten.events, forgedHead, anchor);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([expect.stringMatching(/^event 3 \(audit\/e3\): not the event anchored/)]);
    expect((await verifyChain(events.slice(0, 2), { seq: 2, hash: events[1]!.hash! }, anchor)).problems).toEqual(['the anchored event 3 is not in the log']);
  });

  it('an event without seq written after the chain began is a forgery; those from before are counted (issue 55)', () => {
    const start = '2026-11-25T12:00:00.000Z';
    const { before, problems } = unchainedProblems([
      { id: 'old', createdAt: '2026-11-01T09:00:00.000Z' },
      // Its own `at` claims the past; Firestore's create time, which no writer chooses, says otherwise.
      { id: 'forged', createdAt: '2026-11-26T08:00:00.000Z', at: '2026-10-01T00:00:00.000Z' },
      // No create time (a database that gives none): its `at` decides; with neither it cannot be placed.
      { id: 'dated', at: '2026-10-01T00:00:00.000Z' },
      { id: 'undated' },
    ], start);
    expect(before).toBe(2);
    expect(problems).toEqual([
      expect.stringMatching(/^audit\/forged: written 2026-11-26T08:00:00.000Z without its place in the chain/),
      expect.stringMatching(/^audit\/undated: written at an unknown time without its place in the chain/),
    ]);
    // Before any chain, nothing is out of it.
    expect(unchainedProblems([{ id: 'a' }, { id: 'b', createdAt: start }], undefined)).toEqual({ before: 2, problems: [] });
  });
});

describe('verifyChain with several anchors (issue 55: the daily anchors)', () => {
  it('passes when every anchor is in the chain, and names each one that is not or differs', async () => {
    const { events, head } = chain(4);
    const at = (seq: number): ChainHead => ({ seq, hash: events[seq - 1]!.hash! });
    expect((await verifyChain(events, head, [at(1), at(3), at(4)])).ok).toBe(true);
    const rewritten = await verifyChain(events, head, [at(2), { seq: 3, hash: 'f'.repeat(64) }, { seq: 9, hash: 'e'.repeat(64) }]);
    expect(rewritten.problems).toEqual([
      `event 3 (audit/e3): not the event anchored as ${'f'.repeat(64)} (the chain was rewritten from here or before)`,
      'the anchored event 9 is not in the log',
    ]);
  });
});
