import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { adminToken, db, http, inboxFor, type InboxMail } from './helpers';

// What the mail API tests share: waiting on the trigger's own time, the delivery record, and the
// developer's inbox (scripts/lib/dev-inbox.ts) as the SMTP server that received the message.

const RUN = randomBytes(4).toString('hex');
const PASSWORD = 'a-long-staff-passphrase-for-mail';

/**
 * How long a mail may take to go out: the emulator hands the run's mails to sendMail one event after
 * another, and while other files place orders a mail waits behind their backlog (a slower machine's
 * took past 30 s). The files that wait on it allow for several such waits (MAIL_TEST_TIMEOUT_MS).
 */
export const MAIL_WAIT_MS = 90_000;
export const MAIL_TEST_TIMEOUT_MS = 4 * MAIL_WAIT_MS;

/** Waits until `check` returns a value (the trigger runs on its own time), up to MAIL_WAIT_MS. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + MAIL_WAIT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const deliveryOf = async (id: string) => (await db().collection('mail').doc(id).get()).data()?.delivery;

export async function staffToken(role: 'bookseller' | 'manager'): Promise<string> {
  const username = `mail-${role}-${RUN}`;
  const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: `Mail ${role}`, role, password: PASSWORD } });
  if (made.status !== 201 && made.status !== 409) throw new Error(`staff ${username}: ${made.status} ${JSON.stringify(made.body)}`);
  return (await http('/api/auth/admin', { method: 'POST', json: { username, password: PASSWORD } })).body.token;
}

/** The one message to `to` whose subject contains `subject`, once the inbox has it, and its document's SUCCESS. */
export async function deliveredOnce(to: string, subject: string, mailId?: string): Promise<InboxMail> {
  const received = await eventually(`"${subject}" to ${to} in the inbox`, async () => (await inboxFor(to)).find((m) => m.subject.includes(subject)));
  expect(received.to).toEqual([to]);
  if (mailId) {
    const delivery = await eventually(`SUCCESS on mail/${mailId}`, async () => {
      const d = await deliveryOf(mailId);
      return d?.state === 'SUCCESS' ? d : undefined;
    });
    expect(delivery).toMatchObject({ state: 'SUCCESS', attempts: 1, error: null });
  }
  expect((await inboxFor(to)).filter((m) => m.subject.includes(subject))).toHaveLength(1);
  return received;
}

