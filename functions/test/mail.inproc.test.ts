import { randomBytes } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInbox, type Inbox } from '../../scripts/lib/dev-inbox';
import { queued } from '../src/lib/mail-queue';
import { claimMail, recordSuccess } from '../src/mail/mail.repo';
import { closeMailPools, sendQueuedMail } from '../src/mail/send-mail';
import { db, NEEDS_TRANSACTIONS, officialBackend } from './helpers';

// The mailer (functions/src/mail/send-mail.ts) against a real SMTP server of the test's own
// (smtp-server, the developer's inbox code) that refuses some recipients: what is recorded on the
// mail document after success, temporary and permanent refusals, an unreachable server, a
// duplicate event, a lease left by a dead sender. Each call tries a mail once; the time of a
// later try is passed as `now` (the clock the claim reads), so nothing here waits 30 s. The lane's
// own database is watched by no trigger, so the test's calls are the only sender
// (mail.api.test.ts and mail-retry.api.test.ts cover the real trigger and sweeper).

const FROM = 'Bookstore Tests <orders@bookstore.localhost>';

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
  closeMailPools();
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
const options = (smtpUri = inbox.smtpUri) => ({ smtpUri, from: FROM });
const MINUTE = 60_000;

describe('sendMail: one real SMTP exchange per try', () => {
  it('queued PENDING (the sweeper takes it after 3 min), sent once: the server got the recipient, sender and subject; SUCCESS after 1 try', async () => {
    const to = `reader-${tag()}@example.com`;
    const { id, subject } = await queue(to);
    const pending = await delivery(id);
    expect(pending).toMatchObject({ state: 'PENDING', attempts: 0, error: null });
    expect(pending.nextAttemptAt.toMillis()).toBeGreaterThan(Date.now() + 2 * MINUTE);
    expect((await mailRef(id).get()).data()!.expireAt.toMillis()).toBeGreaterThan(Date.now() + 29 * 24 * 60 * MINUTE); // the TTL policy's field
    expect(await sendQueuedMail(id, options())).toBe('sent');
    const got = await inbox.waitFor(to, subject);
    expect(got.to).toEqual([to]);
    expect(got.from).toBe('orders@bookstore.localhost');
    expect(got.subject).toBe(subject);
    expect(got.text).toContain(`Hello ${to}`);
    expect(got.html).toContain(`<b>${to}</b>`);
    const record = await delivery(id);
    expect(record).toMatchObject({ state: 'SUCCESS', attempts: 1, error: null, leaseExpireTime: null, nextAttemptAt: null, claim: null, info: { accepted: [to], rejected: [] } });
    expect(record.endTime).toBeInstanceOf(Timestamp);
    expect(record.startTime).toBeInstanceOf(Timestamp);
  });

  it('a temporary refusal (451) leaves it RETRY with the time of the next try (30 s, then 2 min); not tried before then; SUCCESS on the 3rd try, one message', async () => {
    const to = `451x2-${tag()}@example.com`;
    const { id, subject } = await queue(to);
    const t0 = Date.now();
    expect(await sendQueuedMail(id, options(), t0)).toBe('retry');
    const first = await delivery(id);
    expect(first).toMatchObject({ state: 'RETRY', attempts: 1, leaseExpireTime: null, claim: null });
    expect(first.error).toContain('451');
    expect(first.nextAttemptAt.toMillis()).toBe(t0 + 30_000);
    expect(await sendQueuedMail(id, options(), t0 + 29_000)).toBe('skipped'); // not due yet
    expect(tries.get(to)).toBe(1);
    expect(await sendQueuedMail(id, options(), t0 + 30_000)).toBe('retry');
    const second = await delivery(id);
    expect(second).toMatchObject({ state: 'RETRY', attempts: 2 });
    expect(second.nextAttemptAt.toMillis()).toBe(t0 + 30_000 + 2 * MINUTE);
    expect(await sendQueuedMail(id, options(), t0 + 30_000 + 2 * MINUTE)).toBe('sent');
    expect(await delivery(id)).toMatchObject({ state: 'SUCCESS', attempts: 3, error: null, nextAttemptAt: null });
    expect(tries.get(to)).toBe(3);
    expect(inbox.messages().filter((m) => m.subject === subject)).toHaveLength(1);
  });

  it('a mailbox that stays busy (451) is given up after the last try: ERROR with the last answer', async () => {
    const to = `451-${tag()}@example.com`;
    const { id } = await queue(to);
    let now = Date.now();
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push(await sendQueuedMail(id, { ...options(), maxAttempts: 3 }, now));
      now = (await delivery(id)).nextAttemptAt?.toMillis() ?? now;
    }
    expect(outcomes).toEqual(['retry', 'retry', 'failed']);
    const record = await delivery(id);
    expect(record).toMatchObject({ state: 'ERROR', attempts: 3, leaseExpireTime: null, nextAttemptAt: null });
    expect(record.error).toContain('451');
    expect(tries.get(to)).toBe(3);
  });

  it('a permanent refusal (550) is not tried again: ERROR after 1 try, nothing delivered', async () => {
    const to = `550-${tag()}@example.com`;
    const { id } = await queue(to);
    expect(await sendQueuedMail(id, options())).toBe('failed');
    const record = await delivery(id);
    expect(record).toMatchObject({ state: 'ERROR', attempts: 1, nextAttemptAt: null });
    expect(record.error).toContain('550');
    expect(tries.get(to)).toBe(1);
    expect(inbox.messages().some((m) => m.to.includes(to))).toBe(false);
  });

  it('an SMTP server that cannot be reached is a temporary refusal: RETRY naming the connection error, never the password in the URI', async () => {
    // A port nothing listens on: the inbox's own, after a throwaway server on it closed.
    const closed = await startInbox({ smtpPort: 0, httpPort: null });
    const uri = closed.smtpUri.replace('smtp://', 'smtp://shop:s3cret-pa55@');
    await closed.stop();
    const { id } = await queue(`reader-${tag()}@example.com`);
    expect(await sendQueuedMail(id, options(uri))).toBe('retry');
    const record = await delivery(id);
    expect(record).toMatchObject({ state: 'RETRY', attempts: 1 });
    expect(record.error).toMatch(/ECONNREFUSED|connect/i);
    expect(JSON.stringify(record)).not.toContain('s3cret-pa55');
  });

  it('a document that is not a mail (no address) is marked ERROR without a try', async () => {
    const id = `test-${tag()}`;
    await mailRef(id).create({ message: { subject: 'Nobody', text: 'x' } });
    expect(await sendQueuedMail(id, options())).toBe('skipped');
    expect(await delivery(id)).toMatchObject({ state: 'ERROR', attempts: 0, nextAttemptAt: null });
    expect((await delivery(id)).error).toContain('needs `to`');
  });

  it.skipIf(!officialBackend)(`the same mail taken by three senders at once is sent once: one claims it, the others find it taken ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, async () => {
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

  it('a mail left PROCESSING by a sender that died (its lease over) is taken again and sent: the next try', async () => {
    const to = `orphan-${tag()}@example.com`;
    const { id, subject } = await queue(to);
    const past = Timestamp.fromMillis(Date.now() - 1000);
    await mailRef(id).update({ 'delivery.state': 'PROCESSING', 'delivery.attempts': 1, 'delivery.leaseExpireTime': past, 'delivery.nextAttemptAt': past, 'delivery.claim': 'dead-sender' });
    expect(await sendQueuedMail(id, options())).toBe('sent');
    expect(await delivery(id)).toMatchObject({ state: 'SUCCESS', attempts: 2, claim: null });
    expect(inbox.messages().filter((m) => m.subject === subject)).toHaveLength(1);
  });

  it('a mail whose sender died on its last try is ERROR, not tried forever (a try counts when it starts)', async () => {
    const to = `crasher-${tag()}@example.com`;
    const { id } = await queue(to);
    const past = Timestamp.fromMillis(Date.now() - 1000);
    await mailRef(id).update({ 'delivery.state': 'PROCESSING', 'delivery.attempts': 8, 'delivery.leaseExpireTime': past, 'delivery.nextAttemptAt': past, 'delivery.claim': 'dead-sender' });
    expect(await sendQueuedMail(id, options())).toBe('skipped');
    expect(await delivery(id)).toMatchObject({ state: 'ERROR', attempts: 8, nextAttemptAt: null, error: 'Message processing lease expired on its last try.' });
    expect(inbox.messages().some((m) => m.to.includes(to))).toBe(false);
  });

  it('a mail PROCESSING under a live lease (another sender is trying it) is left alone', async () => {
    const { id } = await queue(`busy-${tag()}@example.com`);
    const lease = Timestamp.fromMillis(Date.now() + 60_000);
    await mailRef(id).update({ 'delivery.state': 'PROCESSING', 'delivery.leaseExpireTime': lease, 'delivery.claim': 'live-sender' });
    expect(await sendQueuedMail(id, options())).toBe('skipped');
    expect(await delivery(id)).toMatchObject({ state: 'PROCESSING', leaseExpireTime: lease, claim: 'live-sender' });
  });

  it("a sender whose lease ran out and whose mail another took records nothing over the other's outcome", async () => {
    const { id } = await queue(`slow-${tag()}@example.com`);
    const slow = await claimMail(id, 1000);
    expect(slow.claimed).toBe(true);
    const later = await claimMail(id, 60_000, Date.now() + 5000); // the lease of 1 s is over
    expect(later.claimed).toBe(true);
    expect(await recordSuccess(id, (slow as { token: string }).token, 1, { messageId: null, accepted: [], rejected: [], pending: [], response: null })).toBe(false);
    expect(await delivery(id)).toMatchObject({ state: 'PROCESSING', claim: (later as { token: string }).token });
  });
});
