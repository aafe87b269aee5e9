import { randomBytes } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInbox, type Inbox } from '../../scripts/lib/dev-inbox';
import { queued } from '../src/lib/mail-queue';
import { sendQueuedMail } from '../src/mail/send-mail';
import { db, NEEDS_TRANSACTIONS, officialBackend } from './helpers';

// The mailer (functions/src/mail/send-mail.ts) against a real SMTP server of the test's own
// (smtp-server, the developer's inbox code) that refuses some recipients: what is recorded on the
// mail document after success, transient and permanent refusals, an unreachable server, a
// duplicate event, a lease left by a dead instance. The lane's own database is watched by no
// trigger, so the test's calls are the only sender (mail.api.test.ts covers the real trigger).

const FROM = 'Bookstore Tests <orders@bookstore.localhost>';
const BACKOFF_MS = 5; // the function waits 1 s, 2 s, 4 s, 8 s; the logic is the same

/** Refusals by recipient: `451x<n>-...` refuses the first n tries with 451, `550-...` always with 550, `451-...` always with 451. */
const tries = new Map<string, number>();
let inbox: Inbox;

beforeAll(async () => {
  inbox = await startInbox({
    smtpPort: 0,
    httpPort: null,
    recipients: (address) => {
      const n = (tries.get(address) ?? 0) + 1;
      tries.set(address, n);
      const times = /^451x(\d+)-/.exec(address)?.[1];
      if (times && n <= Number(times)) return { code: 451, message: '4.3.0 Try again later' };
      if (address.startsWith('451-')) return { code: 451, message: '4.3.0 Mailbox busy' };
      if (address.startsWith('550-')) return { code: 550, message: '5.1.1 No such user here' };
      return null;
    },
  });
});

afterAll(async () => {
  await inbox?.stop();
});

const tag = () => randomBytes(5).toString('hex');
const mailRef = (id: string) => db().collection('mail').doc(id);

async function queue(to: string, subject = `Test mail ${tag()}`): Promise<{ id: string; subject: string }> {
  const id = `test-${tag()}`;
  await mailRef(id).create(queued({ to, message: { subject, text: `Hello ${to}`, html: `<p>Hello <b>${to}</b></p>` } }));
  return { id, subject };
}

const delivery = async (id: string) => (await mailRef(id).get()).data()!.delivery;
const options = (smtpUri = inbox.smtpUri) => ({ smtpUri, from: FROM, backoffMs: BACKOFF_MS });

describe('sendMail: one real SMTP exchange per mail', () => {
  it('queued PENDING, sent once: the server got the recipient, sender and subject; the document says SUCCESS after 1 try', async () => {
    const to = `reader-${tag()}@example.com`;
    const { id, subject } = await queue(to);
    expect(await delivery(id)).toMatchObject({ state: 'PENDING', attempts: 0, error: null });
    expect(await sendQueuedMail(id, options())).toBe('sent');
    const got = await inbox.waitFor(to, subject);
    expect(got.to).toEqual([to]);
    expect(got.from).toBe('orders@bookstore.localhost');
    expect(got.subject).toBe(subject);
    expect(got.text).toContain(`Hello ${to}`);
    expect(got.html).toContain(`<b>${to}</b>`);
    const record = await delivery(id);
    expect(record).toMatchObject({ state: 'SUCCESS', attempts: 1, error: null, leaseExpireTime: null, info: { accepted: [to], rejected: [] } });
    expect(record.endTime).toBeInstanceOf(Timestamp);
    expect(record.startTime).toBeInstanceOf(Timestamp);
  });

  it('a transient refusal (451) is tried again with backoff: SUCCESS on the 3rd try, one message delivered', async () => {
    const to = `451x2-${tag()}@example.com`;
    const { id, subject } = await queue(to);
    expect(await sendQueuedMail(id, options())).toBe('sent');
    expect(await delivery(id)).toMatchObject({ state: 'SUCCESS', attempts: 3, error: null });
    expect(tries.get(to)).toBe(3);
    expect(inbox.messages().filter((m) => m.subject === subject)).toHaveLength(1);
  });

  it('a mailbox that stays busy (451) is given up after 5 tries: ERROR with the last answer', async () => {
    const to = `451-${tag()}@example.com`;
    const { id } = await queue(to);
    expect(await sendQueuedMail(id, options())).toBe('failed');
    const record = await delivery(id);
    expect(record).toMatchObject({ state: 'ERROR', attempts: 5, leaseExpireTime: null });
    expect(record.error).toContain('451');
    expect(tries.get(to)).toBe(5);
  });

  it('a permanent refusal (550) is not tried again: ERROR after 1 try, nothing delivered', async () => {
    const to = `550-${tag()}@example.com`;
    const { id } = await queue(to);
    expect(await sendQueuedMail(id, options())).toBe('failed');
    const record = await delivery(id);
    expect(record).toMatchObject({ state: 'ERROR', attempts: 1 });
    expect(record.error).toContain('550');
    expect(tries.get(to)).toBe(1);
    expect(inbox.messages().some((m) => m.to.includes(to))).toBe(false);
  });

  it('an SMTP server that cannot be reached: 5 tries, ERROR naming the connection error, never the password in the URI', async () => {
    // A port nothing listens on: the inbox's own, after a throwaway server on it closed.
    const closed = await startInbox({ smtpPort: 0, httpPort: null });
    const uri = closed.smtpUri.replace('smtp://', 'smtp://shop:s3cret-pa55@');
    await closed.stop();
    const { id } = await queue(`reader-${tag()}@example.com`);
    expect(await sendQueuedMail(id, options(uri))).toBe('failed');
    const record = await delivery(id);
    expect(record).toMatchObject({ state: 'ERROR', attempts: 5 });
    expect(record.error).toMatch(/ECONNREFUSED|connect/i);
    expect(JSON.stringify(record)).not.toContain('s3cret-pa55');
  });

  it('a document that is not a mail (no address) is marked ERROR without a try', async () => {
    const id = `test-${tag()}`;
    await mailRef(id).create({ message: { subject: 'Nobody', text: 'x' } });
    expect(await sendQueuedMail(id, options())).toBe('skipped');
    expect(await delivery(id)).toMatchObject({ state: 'ERROR', attempts: 0 });
    expect((await delivery(id)).error).toContain('needs `to`');
  });

  it.skipIf(!officialBackend)(`the same event delivered twice at once sends one message: one call claims it, the other finds it taken ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, async () => {
    const to = `twice-${tag()}@example.com`;
    const { id, subject } = await queue(to);
    const outcomes = await Promise.all([sendQueuedMail(id, options()), sendQueuedMail(id, options()), sendQueuedMail(id, options())]);
    expect(outcomes.sort()).toEqual(['sent', 'skipped', 'skipped']);
    await inbox.waitFor(to, subject);
    expect(inbox.messages().filter((m) => m.subject === subject)).toHaveLength(1);
    expect(await delivery(id)).toMatchObject({ state: 'SUCCESS', attempts: 1 });
    // A redelivery after the send: still one message.
    expect(await sendQueuedMail(id, options())).toBe('skipped');
    expect(inbox.messages().filter((m) => m.subject === subject)).toHaveLength(1);
  });

  it('a mail left PROCESSING by an instance that died (its lease over) is marked ERROR, never sent a second time', async () => {
    const to = `orphan-${tag()}@example.com`;
    const { id } = await queue(to);
    await mailRef(id).update({ 'delivery.state': 'PROCESSING', 'delivery.attempts': 1, 'delivery.leaseExpireTime': Timestamp.fromMillis(Date.now() - 1000) });
    expect(await sendQueuedMail(id, options())).toBe('skipped');
    expect(await delivery(id)).toMatchObject({ state: 'ERROR', error: 'Message processing lease expired.' });
    expect(inbox.messages().some((m) => m.to.includes(to))).toBe(false);
  });

  it('a mail PROCESSING under a live lease (another instance is sending it) is left alone', async () => {
    const { id } = await queue(`busy-${tag()}@example.com`);
    const lease = Timestamp.fromMillis(Date.now() + 60_000);
    await mailRef(id).update({ 'delivery.state': 'PROCESSING', 'delivery.leaseExpireTime': lease });
    expect(await sendQueuedMail(id, options())).toBe('skipped');
    expect(await delivery(id)).toMatchObject({ state: 'PROCESSING', leaseExpireTime: lease });
  });
});
