import { createHash } from 'node:crypto';
import { mailboxKey, NEWSLETTER_REQUESTED, STOCK_ALERT_REQUESTED } from '@bookstore/contract';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ALERTS_PER_ADDRESS, ALERTS_PER_IP, NEWSLETTER_PER_IP } from '../src/subscriptions/subscriptions.handlers';
import { clearSignUpLimits, db, expectUnchanged, http, makeBooks, newCustomer, removeBooks, type TestBook } from './helpers';

// Issue 36, item 3: the shop's sign-up forms used to flood a stranger's inbox: the same mailbox
// spelled with `+tag`s, dots and googlemail.com, sent from invented X-Forwarded-For addresses.
// Hostile: every case spells one victim's mailbox many ways and writes its own X-Forwarded-For.

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const VICTIM = `victim.${RUN}`; // a Gmail local part with a dot

/** `n` spellings of one Gmail mailbox: case, dots moved, +tags, googlemail.com. */
function spellings(n: number): string[] {
  const plain = VICTIM.replace(/\./g, '');
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const dotted = plain.slice(0, 1 + (i % (plain.length - 1))) + '.' + plain.slice(1 + (i % (plain.length - 1)));
    const local = i % 3 === 0 ? dotted.toUpperCase() : dotted;
    out.push(`${local}+${i}@${i % 2 ? 'googlemail.com' : 'GMail.com'}`);
  }
  return out;
}
const invented = (i: number) => `203.0.113.${i % 250}, 198.51.100.${(i * 7) % 250}`;

/** Every mail queued to one of these spellings (as the shop stores them: lower case). */
async function mailsTo(emails: string[], prefix: string): Promise<string[]> {
  const snap = await db().collection('mail').where('to', 'in', emails.map((e) => e.toLowerCase())).get();
  return snap.docs.filter((d) => d.id.startsWith(prefix)).map((d) => d.id);
}

const made: TestBook[] = [];
beforeEach(() => clearSignUpLimits());
afterAll(async () => {
  await clearSignUpLimits();
  const alerts = await db().collection('stockAlerts').where('bookId', 'in', made.slice(0, 30).map((b) => b._id)).get();
  await Promise.all(alerts.docs.map((d) => d.ref.delete()));
  await removeBooks(made);
});

describe('mail bombing through the sign-up forms', () => {
  it('spellings of one mailbox are one mailbox: case, +tags, dots and googlemail.com', () => {
    expect(new Set(spellings(12).map(mailboxKey))).toEqual(new Set([`${VICTIM.replace(/\./g, '')}@gmail.com`]));
    expect(mailboxKey('Ann.Lee+x@Example.com')).toBe('ann.lee@example.com'); // dots count outside Gmail
    expect(mailboxKey('ann+@example.com')).toBe('ann@example.com');
  });

  it('eight spellings of one Gmail mailbox from eight invented addresses: one confirmation mail, and the same answer to all', async () => {
    const answers: unknown[] = [];
    for (const [i, email] of spellings(8).entries()) {
      const res = await http('/api/newsletter', { method: 'POST', json: { email }, headers: { 'X-Forwarded-For': invented(i) } });
      expect(res.status).toBe(202);
      answers.push(res.body);
    }
    expect(answers.every((a) => JSON.stringify(a) === JSON.stringify({ message: NEWSLETTER_REQUESTED }))).toBe(true);
    expect(await mailsTo(spellings(8), 'newsletter-confirm-')).toHaveLength(1);
  });

  it(`the per-client limit (${NEWSLETTER_PER_IP} newsletter sign-ups) holds whatever X-Forwarded-For the caller writes`, async () => {
    for (let i = 0; i < NEWSLETTER_PER_IP; i++) {
      const res = await http('/api/newsletter', { method: 'POST', json: { email: `spread-${RUN}-${i}@example.com` }, headers: { 'X-Forwarded-For': invented(i) } });
      expect(res.status).toBe(202);
    }
    const refused = await expectUnchanged(() =>
      http('/api/newsletter', { method: 'POST', json: { email: `spread-${RUN}-x@example.com` }, headers: { 'X-Forwarded-For': '192.0.2.250' } }),
    );
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many requests from your network. Try again later.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it(`back-in-stock: ${ALERTS_PER_ADDRESS} sign-ups per mailbox an hour whatever the spelling; beyond, the same answer and nothing stored`, async () => {
    const books = await makeBooks(ALERTS_PER_ADDRESS + 2, 0);
    made.push(...books);
    expect(ALERTS_PER_ADDRESS + 2).toBeLessThan(ALERTS_PER_IP); // the client's own limit is not what stops this
    const emails = spellings(books.length);
    for (const [i, book] of books.entries()) {
      const send = () => http('/api/stock-alerts', { method: 'POST', json: { bookId: book._id, email: emails[i] }, headers: { 'X-Forwarded-For': invented(i) } });
      const res = i < ALERTS_PER_ADDRESS ? await send() : await expectUnchanged(send);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: STOCK_ALERT_REQUESTED });
    }
    const stored = await db().collection('stockAlerts').where('bookId', 'in', books.map((b) => b._id)).get();
    expect(stored.size).toBe(ALERTS_PER_ADDRESS);
  });

  it('a signed-in customer whose address is not verified cannot ask for alerts to it (403), and nothing is stored', async () => {
    const [book] = await makeBooks(1, 0);
    made.push(book!);
    const stranger = await newCustomer('unverified-alert', { verified: false });
    const res = await expectUnchanged(() => http('/api/stock-alerts', { method: 'POST', token: stranger.token, json: { bookId: book!._id } }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Verify your email address first', code: 'EMAIL_NOT_VERIFIED' });
    // Verified, the same click works.
    const verified = await newCustomer('verified-alert');
    expect((await http('/api/stock-alerts', { method: 'POST', token: verified.token, json: { bookId: book!._id } })).status).toBe(202);
  });

  it('the limits keep no address in the clear', async () => {
    await http('/api/newsletter', { method: 'POST', json: { email: `clear-${RUN}@example.com` } });
    const ids = (await db().collection('rateLimits').get()).docs.map((d) => d.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => /^[0-9a-f]{40}$/.test(id))).toBe(true);
    expect(ids).toContain(createHash('sha256').update(`newsletter-mailbox-hour:clear-${RUN}@example.com`).digest('hex').slice(0, 40));
  });
});
