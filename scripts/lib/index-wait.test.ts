import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { indexProgress, indexSpecs, waitForIndexes, type ApiIndex, type WaitOptions } from './index-wait';

// The index wait replayed on answers in the shape the Firestore Admin API gives
// (GET v1/projects/{p}/databases/(default)/collectionGroups/-/indexes: `{ indexes: [...] }`, the
// collection group only in `name`, a trailing `__name__` field, `{}` when there are none) for a
// three-index firestore.indexes.json. The clock is fake: a sleep moves it, nothing really waits.

const FIXTURES = new URL('./index-wait-fixtures/', import.meta.url);
const answer = (name: string): ApiIndex[] => (JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as { indexes?: ApiIndex[] }).indexes ?? [];
const SPECS = indexSpecs(readFileSync(new URL('firestore.indexes.json', FIXTURES), 'utf8'));
const PROJECT = 'my-shop-123';
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Replays `answers` one per poll (the last one repeats); a sleep advances the fake clock. */
function replay(answers: (string | Error)[], overrides: Partial<WaitOptions> = {}) {
  let clock = 0;
  let call = 0;
  const lines: string[] = [];
  const slept: number[] = [];
  const options: WaitOptions = {
    projectId: PROJECT,
    specs: SPECS,
    list: async () => {
      const next = answers[Math.min(call++, answers.length - 1)]!;
      if (next instanceof Error) throw next;
      return answer(next);
    },
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    log: (line) => lines.push(line),
    timeoutMs: 20 * MINUTE,
    pollMs: 15 * SECOND,
    ...overrides,
  };
  return { run: () => waitForIndexes(options), lines, slept, calls: () => call };
}

describe('indexProgress', () => {
  it('matches the API list to firestore.indexes.json despite the implicit __name__ field, order and other indexes', () => {
    expect(SPECS).toHaveLength(3);
    expect(indexProgress(SPECS, answer('3-ready.json')).map((p) => [p.label, p.status])).toEqual([
      ['books (category ASC, newestKey DESC)', 'READY'],
      ['books (category ASC, inStock ASC, priceKey ASC)', 'READY'],
      ['orders (uid ASC, createdAt DESC)', 'READY'],
    ]);
    expect(indexProgress(SPECS, answer('1-just-deployed.json')).map((p) => p.status)).toEqual(['CREATING', 'CREATING', 'CREATING']);
    expect(indexProgress(SPECS, answer('needs-repair.json')).map((p) => p.state)).toEqual(['READY', 'NEEDS_REPAIR', 'READY']);
    expect(indexProgress(SPECS, answer('missing.json')).map((p) => p.status)).toEqual(['READY', 'MISSING', 'READY']);
    expect(indexProgress(SPECS, answer('no-indexes.json')).map((p) => p.status)).toEqual(['MISSING', 'MISSING', 'MISSING']);
  });

  it('does not take an index with another direction, scope or field list for the declared one', () => {
    const [ready] = answer('3-ready.json').filter((i) => i.name.includes('CICAgJiUpoMK'));
    const flipped = { ...ready!, fields: ready!.fields!.map((f) => (f.fieldPath === 'newestKey' ? { ...f, order: 'ASCENDING' } : f)) };
    const group = { ...ready!, queryScope: 'COLLECTION_GROUP' };
    const shorter = { ...ready!, fields: ready!.fields!.slice(1) };
    for (const other of [flipped, group, shorter]) expect(indexProgress(SPECS.slice(0, 1), [other])[0]!.status).toBe('MISSING');
  });

  it("reads every composite index of the repository's own firestore.indexes.json", () => {
    const real = indexSpecs(readFileSync(new URL('../../firestore.indexes.json', import.meta.url), 'utf8'));
    expect(real.length).toBeGreaterThan(0);
    const listed: ApiIndex[] = real.map((spec, i) => ({
      name: `projects/${PROJECT}/databases/(default)/collectionGroups/${spec.collectionGroup}/indexes/ID${i}`,
      queryScope: spec.queryScope,
      // Firestore appends `__name__` in the last field's direction, unless the spec names it itself.
      fields: spec.fields.at(-1)!.fieldPath === '__name__' ? spec.fields : [...spec.fields, { fieldPath: '__name__', order: spec.fields.at(-1)!.order }],
      state: 'READY',
    }));
    expect(indexProgress(real, listed).every((p) => p.status === 'READY')).toBe(true);
  });
});

describe('waitForIndexes', () => {
  it('polls CREATING -> building -> READY and returns once all are READY', async () => {
    const { run, lines, slept } = replay(['1-just-deployed.json', '1-just-deployed.json', '2-building.json', '3-ready.json']);
    expect(await run()).toEqual({ ok: true, polls: 4, elapsedMs: 45 * SECOND });
    expect(slept).toEqual([15 * SECOND, 15 * SECOND, 15 * SECOND]);
    // A line when the counts change, not one per poll.
    expect(lines).toEqual(['  0 of 3 READY, 3 CREATING (0 s)', '  2 of 3 READY, 1 CREATING (30 s)', '  all 3 composite indexes READY after 45 s']);
  });

  it('returns at once when everything is READY already (a re-deploy)', async () => {
    const { run, slept } = replay(['3-ready.json']);
    expect(await run()).toMatchObject({ ok: true, polls: 1 });
    expect(slept).toEqual([]);
  });

  it('stops at the timeout naming what is still building and the exact command to resume', async () => {
    const { run, calls } = replay(['1-just-deployed.json', '2-building.json'], { timeoutMs: 5 * MINUTE });
    const result = await run();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe('timeout');
    expect(calls()).toBe(21); // 0 s, 15 s, ... 5 min: the last poll falls on the deadline
    expect(result.message).toEqual([
      'Stopped waiting after 5 min 00 s: 1 of 3 composite indexes are not READY yet:',
      '  CREATING books (category ASC, inStock ASC, priceKey ASC)',
      'Rules, indexes and Storage rules are deployed; the extension, the functions and Hosting are not (the live site still runs the previous release).',
      `Follow the build: npx firebase firestore:indexes --pretty --project ${PROJECT} (or https://console.firebase.google.com/project/${PROJECT}/firestore/databases/-default-/indexes).`,
      `Resume once they are READY (waits again, then releases the rest): npm run deploy -- --project ${PROJECT} --from index-wait`,
      `Or release now and accept 500s on the queries that need them until they are READY: npm run deploy -- --project ${PROJECT} --from extensions`,
    ]);
  });

  it('stops at once on NEEDS_REPAIR (or ERROR): waiting cannot fix a failed build', async () => {
    const { run, calls } = replay(['1-just-deployed.json', 'needs-repair.json', '3-ready.json']);
    const result = await run();
    expect(calls()).toBe(2);
    expect(result).toMatchObject({ ok: false, reason: 'failed' });
    if (result.ok) return;
    expect(result.message[0]).toBe('1 composite index failed to build:');
    expect(result.message[1]).toBe('  NEEDS_REPAIR books (category ASC, inStock ASC, priceKey ASC)');
    expect(result.message.at(-1)).toContain(`then run the whole deploy again, which re-creates it: npm run deploy -- --project ${PROJECT}`);

    const errored = answer('needs-repair.json').map((i) => (i.state === 'NEEDS_REPAIR' ? { ...i, state: 'ERROR' } : i));
    expect(indexProgress(SPECS, errored)[1]).toMatchObject({ status: 'FAILED', state: 'ERROR' });
  });

  it('gives a declared index that is not listed a grace period, then stops saying the deploy did not create it', async () => {
    const { run, calls, lines } = replay(['missing.json'], { missingGraceMs: MINUTE });
    const result = await run();
    expect(calls()).toBe(5); // 0, 15, 30, 45 s listed as missing; at 60 s it gives up
    expect(lines[0]).toBe('  2 of 3 READY, 0 CREATING, 1 not listed yet (0 s)');
    expect(result).toMatchObject({ ok: false, reason: 'missing' });
    if (result.ok) return;
    expect(result.message[1]).toBe('  MISSING books (category ASC, inStock ASC, priceKey ASC)');
  });

  it('waits for an index that shows up in the list a little after the deploy', async () => {
    const { run } = replay(['no-indexes.json', '1-just-deployed.json', '3-ready.json']);
    expect(await run()).toMatchObject({ ok: true, polls: 3 });
  });

  it('rides out a failed list call, and gives up after three in a row with the resume command', async () => {
    const blip = new Error('socket hang up');
    expect(await replay([blip, '3-ready.json']).run()).toMatchObject({ ok: true, polls: 2 });
    const result = await replay([new Error('Failed to authenticate, have you run firebase login?')]).run();
    expect(result).toMatchObject({ ok: false, reason: 'unreadable', polls: 3 });
    if (result.ok) return;
    expect(result.message[0]).toBe('The index list could not be read 3 times in a row: Failed to authenticate, have you run firebase login?');
    expect(result.message.at(-1)).toContain(`npm run deploy -- --project ${PROJECT} --from index-wait`);
  });
});
