import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// SECURITY.md's table of what a browser may do straight to Firestore must say what firestore.rules
// says (issue 36): the operations allowed per matched path, read from both files. What each
// condition means is tested against the emulator (functions/test/rules.api.test.ts, wishlist-rules).

const OPS = ['get', 'list', 'create', 'update', 'delete'] as const;
type Op = (typeof OPS)[number];
const EXPAND: Record<string, Op[]> = { read: ['get', 'list'], write: ['create', 'update', 'delete'], get: ['get'], list: ['list'], create: ['create'], update: ['update'], delete: ['delete'] };

/** path -> operations some `allow` grants under a condition other than a literal false. */
export function rulesTable(rules: string): Map<string, Set<Op>> {
  const table = new Map<string, Set<Op>>();
  const stack: string[] = [];
  const text = rules.replace(/\/\/[^\n]*/g, '');
  const token = /match\s+(\S+)\s*\{|allow\s+([a-z,\s]+):\s*if\s+([^;]+);|function\s+\w+\([^)]*\)\s*\{|\{|\}/g;
  const kinds: ('match' | 'block')[] = [];
  for (const m of text.matchAll(token)) {
    if (m[1]) {
      stack.push(m[1]);
      kinds.push('match');
      if (!m[1].startsWith('/databases/')) table.set(m[1], table.get(m[1]) ?? new Set());
    } else if (m[2]) {
      const path = stack.at(-1)!;
      const granted = m[3]!.trim() !== 'false';
      for (const op of m[2].split(',').map((o) => o.trim())) {
        const expanded = EXPAND[op];
        if (!expanded) throw new Error(`unknown operation ${op} at ${path}`);
        if (granted) expanded.forEach((o) => table.get(path)!.add(o));
      }
    } else if (m[0] === '}') {
      if (kinds.pop() === 'match') stack.pop();
    } else kinds.push('block');
  }
  return table;
}

/** The table under "What a browser may do straight to Firestore" in SECURITY.md. */
export function documentedTable(markdown: string): Map<string, Set<Op>> {
  const section = markdown.split('### What a browser may do straight to Firestore')[1]?.split('\n\n').find((part) => part.startsWith('| Path |'));
  if (!section) throw new Error('SECURITY.md has no Firestore table');
  const table = new Map<string, Set<Op>>();
  for (const line of section.split('\n').slice(2)) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const path = /`([^`]+)`/.exec(cells[0]!)![1]!;
    table.set(path, new Set(OPS.filter((_, i) => cells[i + 1] === 'yes')));
  }
  return table;
}

const read = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8');
const asObject = (table: Map<string, Set<Op>>) => Object.fromEntries([...table].map(([path, ops]) => [path, [...ops].sort()]));

describe("SECURITY.md's table of client access", () => {
  it('lists every path of firestore.rules with exactly the operations the rules allow', () => {
    expect(asObject(documentedTable(read('SECURITY.md')))).toEqual(asObject(rulesTable(read('firestore.rules'))));
  });

  it('the parser sees what a rules change would change (so the check above can fail)', () => {
    const rules = read('firestore.rules');
    const opened = rules.replace("match /books/{bookId} {\n      allow get: if true;", "match /books/{bookId} {\n      allow get, list: if true;");
    expect(opened).not.toBe(rules);
    expect([...rulesTable(opened).get('/books/{bookId}')!].sort()).toEqual(['get', 'list']);
    expect([...rulesTable(rules).get('/{document=**}')!]).toEqual([]);
    expect([...rulesTable(rules).get('/wishlists/{uid}')!].sort()).toEqual(['create', 'delete', 'get', 'update']);
  });
});
