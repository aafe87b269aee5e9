import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './env';

// eslint-rules/aggregate-writes.js through the project's own ESLint config (issue 54): a module of
// the functions that writes an order (or a book) document itself fails `npm run lint`, naming the
// file; the owners (order-writes.ts, book-writes.ts) and the modules that go through them pass.

const probes: string[] = [];

async function lintProbe(dir: string, text: string): Promise<string[]> {
  const path = join(ROOT, dir, `lint-probe-${process.pid}-${probes.length}.ts`);
  probes.push(path);
  writeFileSync(path, text);
  const [result] = await new ESLint({ cwd: ROOT }).lintFiles([path]);
  return result!.messages.filter((m) => m.ruleId === 'bookstore/aggregate-writes').map((m) => m.message);
}

afterEach(() => {
  for (const path of probes.splice(0)) rmSync(path, { force: true });
});

const HEADER = "import { db } from '../lib/firebase';\nimport { orders, updateOrder } from './order-writes';\n";

describe('one write path per aggregate (npm run lint)', { timeout: 60_000 }, () => {
  it('fails a module that updates an order in a transaction, naming the file', async () => {
    const messages = await lintProbe('functions/src/orders', `${HEADER}
export async function sneaky(id: string) {
  await db().runTransaction(async (tx) => {
    const ref = orders().doc(id);
    tx.update(ref, { status: 'cancelled' });
  });
}
`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/functions\/src\/orders\/lint-probe-\d+-0\.ts writes order documents directly: go through functions\/src\/orders\/order-writes\.ts/);
  });

  it('fails every other shape of a direct write: set on a collection path, a doc path, a reference, add', async () => {
    const messages = await lintProbe('functions/src/payments', `${HEADER}
export async function sneaky(id: string) {
  await db().collection('orders').doc(id).set({ status: 'paid' });
  await db().doc(\`orders/\${id}\`).delete();
  const batch = db().batch();
  batch.create(orders().doc(), { status: 'pending' });
  await orders().add({ status: 'pending' });
}
`);
    expect(messages).toHaveLength(4);
  });

  it('fails a book written outside the book write path', async () => {
    const messages = await lintProbe('functions/src/sales', `import { books } from '../books/book-doc';
export const sneaky = (id: string) => books().doc(id).update({ stock: 99 });
`);
    expect(messages).toEqual([expect.stringMatching(/writes book documents directly: go through functions\/src\/books\/book-writes\.ts/)]);
  });

  it('passes reads, other collections, and writes through the order door', async () => {
    const messages = await lintProbe('functions/src/orders', `${HEADER}
export async function fine(id: string) {
  await db().runTransaction(async (tx) => {
    const ref = orders().doc(id);
    const snap = await tx.get(ref);
    updateOrder(tx, ref, { updatedAt: String(snap.get('updatedAt')) });
    tx.set(db().collection('customers').doc(id), { openOrders: 1 }, { merge: true });
  });
}
`);
    expect(messages).toEqual([]);
  });
});
