import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopDay } from '@bookstore/contract';
import { runScheduled } from '../../scripts/lib/local-schedules';
import { verifyAuditLog } from '../src/admin/audit.repo';
import { adminToken, ageProofs, bucket, coverForm, db, http, makeBooks, newBook, PNG_1x1, removeBooks, type TestBook } from './helpers';

// Issue 36, item 6: the audit log is a hash chain (functions/src/admin/audit-chain.ts), appended
// under a transaction on its head (meta/auditHead), and `npm run audit:verify` walks it. Hostile:
// edits and deletions made with admin credentials (firebase-admin, as the console would), and
// appends racing each other.

const run = promisify(execFile);
const RACING = 5;
const ROOT = new URL('../../', import.meta.url).pathname;

/** `npm run audit:verify -- --emulators` as an operator runs it, against this suite's emulators. */
async function auditVerify(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/audit-verify.ts', '--emulators', ...args], { cwd: ROOT, env: process.env });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

const newest = async () => (await db().collection('audit').orderBy('seq', 'desc').limit(1).get()).docs[0]!;

let books: TestBook[] = [];
beforeAll(async () => {
  books = await makeBooks(12, 3);
});
afterAll(() => removeBooks(books));

describe('the audit chain', () => {
  // Five at once: the Firestore emulator resolves transactions contending on one document by a
  // 30 s lock timeout (firebase-tools#2452; production Firestore aborts and retries in milliseconds),
  // so twelve at once outlast the request's 55 s deadline here; five prove the same ordering.
  it('five admin writes at once make one unbroken chain: no seq taken twice, none skipped', async () => {
    const token = await adminToken();
    const before = (await db().collection('meta').doc('auditHead').get()).data()?.seq ?? 0;
    const racing = books.slice(0, RACING);
    const edits = await Promise.all(
      racing.map((book, i) =>
        http(`/api/books/edit/${book._id}`, {
          method: 'PUT', token,
          json: newBook({ title: book.title, description: 'A book the API tests order.', category: 'fiction', trending: false, coverImage: 'book-1', oldPrice: book.newPrice, newPrice: book.newPrice, stock: 10 + i }),
        }),
      ),
    );
    expect(edits.map((r) => r.status)).toEqual(racing.map(() => 200));
    const head = (await db().collection('meta').doc('auditHead').get()).data()!;
    expect(head.seq).toBeGreaterThanOrEqual(before + RACING);
    const seqs = (await db().collection('audit').where('seq', '>', before).get()).docs.map((d) => d.get('seq') as number).sort((a, b) => a - b);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.at(-1)! - seqs[0]! + 1).toBe(seqs.length);
    const report = await verifyAuditLog(db());
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  }, 120_000);

  it('a bulk change appends one event per book to the chain in one transaction', async () => {
    const res = await http('/api/admin/books/bulk', { method: 'POST', token: await adminToken(), json: { action: 'stock', ids: books.slice(0, 5).map((b) => b._id), stock: 42 } });
    expect(res.status).toBe(200);
    const last = (await db().collection('audit').orderBy('seq', 'desc').limit(5).get()).docs.map((d) => d.data());
    expect(last.map((e) => e.action)).toEqual(Array(5).fill('book.stock'));
    expect((await verifyAuditLog(db())).ok).toBe(true);
  });

  it('the newsletter export and cover changes are audit events in the chain', async () => {
    const token = await adminToken();
    const csv = await http('/api/admin/newsletter.csv', { token });
    expect(csv.status).toBe(200);
    expect((await newest()).data()).toMatchObject({ actor: 'admin', action: 'newsletter.export', target: 'newsletter' });
    // A cover uploaded, set on a book, then replaced: the old object is deleted, and that is recorded too.
    const first = await http('/api/books/cover', { method: 'POST', token, body: coverForm(Buffer.concat([PNG_1x1, Buffer.from(`chain-a-${Date.now()}`)])) });
    expect(first.status).toBe(201);
    expect((await newest()).data()).toMatchObject({ action: 'cover.upload' });
    const made = await http('/api/books/create-book', { method: 'POST', token, json: newBook({ title: `Chain Cover ${Date.now()}`, coverImage: first.body.coverImage }) });
    expect(made.status).toBe(201);
    const b = made.body.book;
    const second = await http('/api/books/cover', { method: 'POST', token, body: coverForm(Buffer.concat([PNG_1x1, Buffer.from(`chain-b-${Date.now()}`)])) });
    const edited = await http(`/api/books/edit/${b._id}`, {
      method: 'PUT', token,
      json: { title: b.title, description: b.description, category: b.category, trending: b.trending, coverImage: second.body.coverImage, oldPrice: b.oldPrice, newPrice: b.newPrice, stock: b.stock },
    });
    expect(edited.status).toBe(200);
    const [removed, change] = (await db().collection('audit').orderBy('seq', 'desc').limit(2).get()).docs.map((d) => d.data());
    expect(change).toMatchObject({ action: 'book.edit', changes: { coverImage: { before: first.body.coverImage, after: second.body.coverImage } } });
    expect(removed).toMatchObject({ action: 'cover.delete', target: first.body.coverImage, actor: 'admin' });
    expect((await http(`/api/books/${b._id}`, { method: 'DELETE', token })).status).toBe(200);
  });

  it('an export refused for want of a proof is neither sent nor recorded', async () => {
    const token = await adminToken();
    await ageProofs('admin');
    const head = (await db().collection('meta').doc('auditHead').get()).data()!.seq;
    expect((await http('/api/admin/newsletter.csv', { token })).status).toBe(401);
    expect((await db().collection('meta').doc('auditHead').get()).data()!.seq).toBe(head);
    await ageProofs('admin', 0); // the file's later requests use this token
  });

  it('npm run audit:verify passes, then shows an event edited with admin credentials, one deleted, and the newest deleted', async () => {
    const clean = await auditVerify();
    expect(clean.code, clean.out).toBe(0);
    expect(clean.out).toContain('The chain holds');
    const anchor = /--anchor (\d+:[0-9a-f]{64})/.exec(clean.out)![1]!;

    // An edit: someone with the project's credentials makes a price change read as another person's.
    const recent = (await db().collection('audit').orderBy('seq', 'desc').limit(30).get()).docs;
    const victim = recent.find((d) => d.get('action') === 'book.stock')!;
    const original = victim.data();
    await victim.ref.update({ actor: 'someone-else' });
    try {
      const edited = await auditVerify();
      expect(edited.code).toBe(1);
      expect(edited.out).toContain(`event ${original.seq} (audit/${victim.id}): its fields do not match its hash (edited)`);
    } finally {
      await victim.ref.set(original);
    }

    // A deletion in the middle.
    await victim.ref.delete();
    try {
      const deleted = await auditVerify();
      expect(deleted.code).toBe(1);
      expect(deleted.out).toContain(`events ${original.seq}-${original.seq} are missing (deleted)`);
    } finally {
      await victim.ref.set(original);
    }

    // The newest event deleted and the head wound back to the one before: consistent in Firestore,
    // caught by the anchor an earlier run printed.
    const last = await newest();
    const lastData = last.data();
    const headRef = db().collection('meta').doc('auditHead');
    const headData = (await headRef.get()).data()!;
    await last.ref.delete();
    const previous = await newest();
    await headRef.set({ seq: previous.get('seq'), hash: previous.get('hash'), id: previous.id, at: previous.get('at') });
    try {
      expect((await auditVerify()).code).toBe(0); // without a witness, a rewound tail cannot be told from a shorter log
      const anchored = await auditVerify('--anchor', anchor);
      expect(anchored.code).toBe(1);
      expect(anchored.out).toContain(`the anchored event ${lastData.seq} is not in the log`);
    } finally {
      await last.ref.set(lastData);
      await headRef.set(headData);
    }
    expect((await auditVerify('--anchor', anchor)).code).toBe(0);
  }, 180_000);

  it('a forged event (written with admin credentials, without its place in the chain) fails npm run audit:verify and is flagged in the Audit Log (issue 55)', async () => {
    expect((await auditVerify()).code).toBe(0);
    // Dated in the past and shaped like the shop's events; only its missing seq and Firestore's own
    // create time, which no writer chooses, give it away.
    const forger = `forger-${Date.now().toString(36)}`;
    const forged = await db().collection('audit').add({ actor: forger, role: 'owner', action: 'book.price', target: 'books/forged', at: '2020-01-01T00:00:00.000Z', changes: { newPrice: { before: 20, after: 0.01 } } });
    try {
      const caught = await auditVerify();
      expect(caught.code, caught.out).toBe(1);
      expect(caught.out).toContain(`audit/${forged.id}: written `);
      expect(caught.out).toContain('without its place in the chain (no seq), after the chain began');
      const page = await http(`/api/admin/audit?actor=${forger}`, { token: await adminToken() });
      expect(page.status).toBe(200);
      expect(page.body.events).toEqual([expect.objectContaining({ id: forged.id, outOfChain: true })]);
      // The shop's own events are not flagged.
      const own = await http('/api/admin/audit?actor=admin&limit=5', { token: await adminToken() });
      expect(own.body.events.length).toBeGreaterThan(0);
      expect(own.body.events.filter((e: { outOfChain?: boolean }) => e.outOfChain)).toEqual([]);
    } finally {
      await forged.delete();
    }
    expect((await auditVerify()).code).toBe(0);
  }, 120_000);

  it('the daily anchor (issue 55): anchorAudit stores and mails the head once a day, and audit:verify --stored-anchors fails on an anchor the chain does not hold', async () => {
    expect(await runScheduled('anchorAudit')).toBe(200);
    expect(await runScheduled('anchorAudit')).toBe(200); // the same day again: nothing new
    const day = shopDay(new Date());
    const [bytes] = await bucket().file(`audit-anchors/${day}.json`).download();
    const anchor = JSON.parse(bytes.toString('utf8')) as { seq: number; hash: string; day: string };
    expect(anchor.day).toBe(day);
    // The anchored head is an event of the chain, as it stands.
    const event = (await db().collection('audit').where('seq', '==', anchor.seq).get()).docs;
    expect(event.map((d) => d.get('hash'))).toEqual([anchor.hash]);
    const mails = await db().collection('mail').where('message.subject', '==', `Audit log anchor ${day}: event ${anchor.seq}`).get();
    expect(mails.docs.map((d) => d.id)).toEqual([`audit-anchor-${day}`]);
    expect(mails.docs[0]!.get('message.text')).toContain(`--anchor ${anchor.seq}:${anchor.hash}`);

    const held = await auditVerify('--stored-anchors');
    expect(held.code, held.out).toBe(0);
    expect(held.out).toContain('1 stored anchors checked');
    // An anchor the chain does not hold (as after a rewrite of the chain from before event seq).
    const other = bucket().file('audit-anchors/2000-01-01.json');
    await other.save(JSON.stringify({ seq: anchor.seq, hash: 'f'.repeat(64), day: '2000-01-01', at: '2000-01-01T00:00:00.000Z' }));
    try {
      const caught = await auditVerify('--stored-anchors');
      expect(caught.code, caught.out).toBe(1);
      expect(caught.out).toContain(`not the event anchored as ${'f'.repeat(64)}`);
    } finally {
      await other.delete();
    }
  }, 120_000);
});
