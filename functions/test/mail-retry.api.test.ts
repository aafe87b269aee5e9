import { randomBytes } from 'node:crypto';
import { Timestamp } from 'firebase-admin/firestore';
import { describe, expect, it, vi } from 'vitest';
import { runScheduled } from '../../scripts/lib/local-schedules';
import { queued } from '../src/lib/mail-queue';
import { adminToken, db, http, inboxFor } from './helpers';
import { deliveryOf, eventually, MAIL_TEST_TIMEOUT_MS, staffToken } from './mail-helpers';

vi.setConfig({ testTimeout: MAIL_TEST_TIMEOUT_MS }); // mail waits behind the run's backlog (mail-helpers.ts)

// Mail that is never lost (issue 58), through the real trigger, the real sweeper and a real SMTP
// exchange: the Functions emulator's sendMail tries each new mail document once; the developer's
// inbox (scripts/lib/dev-inbox.ts) refuses any address at throttled.test with 421 for its first
// two tries and at refused.test with 550 always; the sweeper (sweepMail, every minute in
// production and under `npm start`) is run here when the test wants it, through the emulator's
// route for scheduled functions (scripts/lib/local-schedules.ts runScheduled). A retry waits 30 s,
// then 2 min: the test moves a RETRY's `nextAttemptAt` to the past instead of waiting for it. Any
// sendMail call may take a due mail too, so what the sweep did is waited for, not assumed.

const RUN = randomBytes(4).toString('hex');
const mailRef = (id: string) => db().collection('mail').doc(id);

async function queueMail(id: string, to: string, subject: string): Promise<void> {
  await mailRef(id).create(queued({ to, message: { subject, text: `Hello ${to}`, html: '' } }));
}

async function deliveryWhen<T extends { state?: string; attempts?: number }>(id: string, what: string, ok: (d: T) => boolean): Promise<T> {
  return eventually(`${what} on mail/${id}`, async () => {
    const d = (await deliveryOf(id)) as T | undefined;
    return d && ok(d) ? d : undefined;
  });
}

/** The time a RETRY waits for, passed: as if its 30 s (or 2 min) had gone by. */
async function makeDue(id: string): Promise<void> {
  await mailRef(id).update({ 'delivery.nextAttemptAt': Timestamp.fromMillis(Date.now() - 1000) });
}

async function sweep(): Promise<void> {
  expect(await runScheduled('sweepMail')).toBe(200);
}

describe('a temporary refusal is tried again later, by the sweeper', () => {
  it('a mail to x@throttled.test: RETRY after each 421 (listed as retrying, with why), delivered once on its third try', async () => {
    const to = `x-${RUN}@throttled.test`;
    const id = `retry-throttled-${RUN}`;
    const subject = `Throttled ${RUN}`;
    const queuedAt = Date.now();
    await queueMail(id, to, subject);

    const first = await deliveryWhen<{ state: string; attempts: number; error: string; nextAttemptAt: Timestamp }>(id, 'the first refusal', (d) => d.state === 'RETRY');
    expect(first).toMatchObject({ state: 'RETRY', attempts: 1, leaseExpireTime: null });
    // A 421 closes the connection: the client reads either the reply or the close first (smtp-server
    // writes the reply, then closes), and both are the same temporary refusal.
    const WHY = /421|connection was closed/;
    expect(first.error).toMatch(WHY);
    // Tried again 30 s after the refusal, not at once.
    expect(first.nextAttemptAt.toMillis()).toBeGreaterThan(queuedAt + 25_000);
    expect(first.nextAttemptAt.toMillis()).toBeLessThanOrEqual(Date.now() + 30_000);

    const listed = await http(`/api/admin/mail/waiting?limit=100`, { token: await staffToken('manager') });
    expect(listed.status).toBe(200);
    const mine = (listed.body.mail as { id: string }[]).find((m) => m.id === id);
    // Listed unless 100 mails come sooner (it is then on a later page): the soonest next try first.
    if (mine || listed.body.nextCursor === null) expect(mine).toMatchObject({ state: 'RETRY', attempts: 1, stuck: false, to, subject, error: expect.stringMatching(WHY) });

    await makeDue(id);
    await sweep();
    const second = await deliveryWhen<{ state: string; attempts: number; nextAttemptAt: Timestamp }>(id, 'the second refusal', (d) => (d.attempts ?? 0) >= 2 && d.state !== 'PROCESSING');
    expect(second).toMatchObject({ state: 'RETRY', attempts: 2 });
    expect(second.nextAttemptAt.toMillis()).toBeGreaterThan(Date.now() + 60_000); // 2 min this time

    await makeDue(id);
    await sweep();
    const done = await deliveryWhen(id, 'SUCCESS', (d) => d.state === 'SUCCESS');
    expect(done).toMatchObject({ state: 'SUCCESS', attempts: 3, error: null, nextAttemptAt: null, info: { accepted: [to] } });
    const received = (await inboxFor(to)).filter((m) => m.subject === subject);
    expect(received).toHaveLength(1);
    // Later sweeps send nothing more.
    await sweep();
    expect((await inboxFor(to)).filter((m) => m.subject === subject)).toHaveLength(1);
  });

  it('a mail to x@refused.test is ERROR at once (550, one try), listed as failed, nothing delivered', async () => {
    const to = `x-${RUN}@refused.test`;
    const id = `retry-refused-${RUN}`;
    await queueMail(id, to, `Refused ${RUN}`);
    const failed = await deliveryWhen<{ state: string; error: string }>(id, 'ERROR', (d) => d.state === 'ERROR');
    expect(failed).toMatchObject({ state: 'ERROR', attempts: 1, nextAttemptAt: null });
    expect(failed.error).toContain('550');
    await sweep();
    expect(await deliveryOf(id)).toMatchObject({ state: 'ERROR', attempts: 1 });
    expect(await inboxFor(to)).toEqual([]);
    const page = await http('/api/admin/mail/failed?limit=100', { token: await adminToken() });
    expect(page.status).toBe(200);
    expect((page.body.mail as { id: string }[]).some((m) => m.id === id) || page.body.nextCursor !== null).toBe(true);
  });
});

describe('a mail stuck in PROCESSING past its lease (its sender died) is picked up', () => {
  it('left alone while its lease runs, listed as stuck once it ran out, then sent by the sweeper: one message, the next try', async () => {
    const to = `stuck-${RUN}@example.com`;
    const id = `retry-stuck-${RUN}`;
    const subject = `Stuck ${RUN}`;
    const lease = Timestamp.fromMillis(Date.now() + 3000);
    // As a sender leaves it when its instance dies mid-try. The trigger fires on the create and finds it taken.
    await mailRef(id).create({
      ...queued({ to, message: { subject, text: 'Taken again after the lease.', html: '' } }),
      delivery: { state: 'PROCESSING', attempts: 1, startTime: Timestamp.now(), endTime: null, leaseExpireTime: lease, nextAttemptAt: lease, claim: 'a-sender-that-died', error: null },
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await deliveryOf(id)).toMatchObject({ state: 'PROCESSING', claim: 'a-sender-that-died' });
    await new Promise((r) => setTimeout(r, Math.max(0, lease.toMillis() - Date.now() + 500)));

    const listed = await http('/api/admin/mail/waiting?limit=100', { token: await adminToken() });
    const mine = (listed.body.mail as { id: string }[]).find((m) => m.id === id);
    const state = (await deliveryOf(id))?.state;
    if (state === 'PROCESSING' && (mine || listed.body.nextCursor === null)) expect(mine).toMatchObject({ state: 'PROCESSING', stuck: true, attempts: 1 });

    await sweep();
    const done = await deliveryWhen(id, 'SUCCESS', (d) => d.state === 'SUCCESS');
    expect(done).toMatchObject({ state: 'SUCCESS', attempts: 2, claim: null, nextAttemptAt: null });
    expect((await inboxFor(to)).filter((m) => m.subject === subject)).toHaveLength(1);
  });
});

describe('POST /api/admin/mail/:id/resend', () => {
  it('pressed three times at once sends the failed mail once: one 202, two 409 MAIL_NOT_FAILED, one audit event; again after it went out: 409', async () => {
    const to = `resend-${RUN}@example.com`;
    const id = `retry-resend-${RUN}`;
    const subject = `Resent ${RUN}`;
    // A mail that failed (its provider refused it), now deliverable. The trigger finds it done.
    await mailRef(id).create({
      ...queued({ to, message: { subject, text: 'Sent again from the dashboard.', html: '' } }),
      delivery: { state: 'ERROR', attempts: 1, startTime: Timestamp.now(), endTime: Timestamp.now(), leaseExpireTime: null, nextAttemptAt: null, error: '554 5.7.1 Daily sending quota exceeded' },
    });
    const manager = await staffToken('manager');
    const presses = await Promise.all([0, 1, 2].map(() => http(`/api/admin/mail/${id}/resend`, { method: 'POST', token: manager })));
    expect(presses.map((r) => r.status).sort()).toEqual([202, 409, 409]);
    expect(presses.find((r) => r.status === 202)!.body).toMatchObject({ id, state: 'RETRY' });
    // A refused press reads the mail after the resend: still waiting, or (when another mail's sender
    // took it at once) already sent. Either way it is not resent.
    for (const refused of presses.filter((r) => r.status === 409)) {
      expect(refused.body).toMatchObject({ code: 'MAIL_NOT_FAILED' });
      expect(['This mail is already waiting to be sent', 'This mail was sent; only a failed mail can be resent']).toContain(refused.body.message);
    }
    // Due at once: another mail's sender may already be trying it (it takes due mail after its own),
    // so its tries are 0 or, already, the one try the resend gave it.
    const resent = await deliveryOf(id);
    expect(resent).toMatchObject({ resentBy: expect.stringContaining('mail-manager-') });
    expect(resent.attempts).toBeLessThanOrEqual(1);

    const audit = await http('/api/admin/audit?action=mail.resend&limit=100', { token: await adminToken() });
    expect(audit.status).toBe(200);
    expect((audit.body.events as { target: string }[]).filter((e) => e.target === `mail/${id}`)).toHaveLength(1);

    await sweep();
    const done = await deliveryWhen(id, 'SUCCESS', (d) => d.state === 'SUCCESS');
    expect(done).toMatchObject({ state: 'SUCCESS', attempts: 1 });
    expect((await inboxFor(to)).filter((m) => m.subject === subject)).toHaveLength(1);

    const again = await http(`/api/admin/mail/${id}/resend`, { method: 'POST', token: manager });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'MAIL_NOT_FAILED', message: 'This mail was sent; only a failed mail can be resent' });
    await sweep();
    expect((await inboxFor(to)).filter((m) => m.subject === subject)).toHaveLength(1);
  });
});
