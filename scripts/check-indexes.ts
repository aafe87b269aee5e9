import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { QueryShape } from '../functions/src/lib/queries';
import { missingIndexes, type IndexFile } from './lib/index-coverage';

// Run by `npm test` after the API and browser tests: every query the function ran during them
// (logged by functions/src/lib/queries.ts) must have its composite index in firestore.indexes.json.
const log = process.env.BOOKSTORE_QUERY_LOG;

describe('firestore.indexes.json', () => {
  it('declares the composite index of every query the function ran in the tests', () => {
    expect(log && existsSync(log), `no query log at ${log}: did the function run any query?`).toBeTruthy();
    const shapes = readFileSync(log!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as QueryShape);
    const file = JSON.parse(readFileSync(new URL('../firestore.indexes.json', import.meta.url), 'utf8')) as IndexFile;
    expect(shapes.length).toBeGreaterThan(0);
    expect(missingIndexes(shapes, file), 'add these to firestore.indexes.json').toEqual([]);
  });
});
