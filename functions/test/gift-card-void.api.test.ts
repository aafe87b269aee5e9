import type { Role } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, ageProofs, db, expectUnchangedIn, http, makeBooks, newCustomer, removeBooks, validOrder, type TestBook } from './helpers';

// Issue 55: value is created only by a session that proved itself in the last 5 minutes (issuing a
// gift card, making or changing a discount code, voiding a card), and a card can be voided: its
// balance to 0 with a 'voided' ledger line, audited, never spendable again. Each test acts as a
// manager of its own: proofs are aged per person, and the demo owner's are every other test's too.
// The overview's liability figure is shop-wide: counters.serial.api.test.ts checks it against a recount.

const PASSWORD = 'margins-and-footnotes-9';
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const REAUTH = { message: 'Confirm your password to continue', code: 'REAUTH_REQUIRED' };

let seq = 0;
async function newManager(role: Role = 'manager'): Promise<{ username: string; token: string }> {
  const username = `value-${role}-${RUN}-${++seq}`;
  const made = await http('/api/admin/staff', { method: 'POST', token: await adminToken(), json: { username, displayName: 'Value Tester', role, password: PASSWORD } });
  expect(made.status).toBe(201);
  const signedIn = await http('/api/auth/admin', { method: 'POST', json: { username, password: PASSWORD } });
  expect(signedIn.status).toBe(200);
  return { username, token: signedIn.body.token as string };
}

const reauth = (token: string) => http('/api/auth/admin/reauth', { method: 'POST', token, json: { password: PASSWORD } });
const issue = (token: string, json: unknown) => http('/api/admin/gift-cards', { method: 'POST', token, json });
const voidCard = (token: string, id: string) => http(`/api/admin/gift-cards/${id}/void`, { method: 'POST', token });
const cardsBy = (username: string) => db().collection('giftCards').where('createdBy', '==', username);
const auditOf = (username: string) => db().collection('audit').where('actor', '==', username);
const ledgerOf = async (id: string) => (await http(`/api/admin/gift-cards/${id}?limit=100`, { token: await adminToken() })).body.ledger as { kind: string; amount: number; balanceAfter: number; by?: string }[];

const books: TestBook[] = [];
beforeAll(async () => {
  books.push(...(await makeBooks(1, 40, 2000)));
});
afterAll(async () => {
  await removeBooks(books);
});

describe('a recent proof where value is created (issue 55)', () => {
  it('issuing a gift card with a 6-minute-old proof: 401 REAUTH_REQUIRED, no card, no audit event; after the password, issued', async () => {
    const manager = await newManager();
    await ageProofs(manager.username); // as 6 minutes would
    const refused = await expectUnchangedIn([cardsBy(manager.username), auditOf(manager.username)], () => issue(manager.token, { amount: 100 }));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(REAUTH);
    expect((await cardsBy(manager.username).get()).size).toBe(0);
    expect((await reauth(manager.token)).status).toBe(200);
    const done = await issue(manager.token, { amount: 100 });
    expect(done.status).toBe(201);
    expect(done.body.balance).toBe(100);
    expect((await cardsBy(manager.username).get()).size).toBe(1);
  });

  it('making a discount code and changing one with a 6-minute-old proof: 401 REAUTH_REQUIRED, nothing made or changed; after the password, both go through', async () => {
    const manager = await newManager();
    const code = `VALUE${RUN.toUpperCase()}`.replace(/[^A-Z0-9]/g, '').slice(0, 20);
    const ref = db().collection('discounts').doc(code);
    await ageProofs(manager.username);
    const refused = await expectUnchangedIn([ref, auditOf(manager.username)], () =>
      http('/api/admin/discounts', { method: 'POST', token: manager.token, json: { code, percentOff: 100 } }));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(REAUTH);
    expect((await ref.get()).exists).toBe(false);
    expect((await reauth(manager.token)).status).toBe(200);
    const made = await http('/api/admin/discounts', { method: 'POST', token: manager.token, json: { code, percentOff: 100, maxRedemptions: 1 } });
    expect(made.status).toBe(201);

    // Changing it (pausing or resuming) asks again once the proof is old.
    await ageProofs(manager.username);
    const pause = () => http(`/api/admin/discounts/${code}`, { method: 'PATCH', token: manager.token, json: { paused: true } });
    const asked = await expectUnchangedIn([ref, auditOf(manager.username)], pause);
    expect(asked.status).toBe(401);
    expect(asked.body).toEqual(REAUTH);
    expect((await reauth(manager.token)).status).toBe(200);
    expect((await pause()).status).toBe(200);
    expect((await ref.get()).data()?.paused).toBe(true);
  });

  it('a bookseller hears 403, not a request for the password', async () => {
    const seller = await newManager('bookseller');
    const refused = await expectUnchangedIn([cardsBy(seller.username)], () => issue(seller.token, { amount: 10 }));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
  });
});

describe('voiding a gift card (issue 55)', () => {
  it('a manager voids a card: balance 0, a voided ledger line, one audit event; the card can no longer pay; a second void is 409', async () => {
    const manager = await newManager();
    const card = (await issue(manager.token, { amount: 60 })).body as { code: string; id: string };
    const res = await voidCard(manager.token, card.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/\bno-store\b/);
    expect(res.body).toMatchObject({ message: 'Gift card voided', giftCard: { id: card.id, balance: 0, initial: 60 } });
    expect(res.body.giftCard.voidedAt).toEqual(expect.any(String));
    expect(JSON.stringify(res.body)).not.toContain(card.code);
    const stored = (await db().collection('giftCards').doc(card.id).get()).data()!;
    expect(stored).toMatchObject({ balanceCents: 0, initialCents: 6000, voidedBy: manager.username });
    expect((await ledgerOf(card.id)).map((l) => [l.kind, l.amount, l.balanceAfter])).toEqual([['voided', -60, 0], ['issued', 60, 60]]);
    const events = (await db().collection('audit').where('target', '==', `giftCards/${card.id}`).get()).docs.map((d) => d.data());
    expect(events.map((e) => e.action).sort()).toEqual(['giftcard.issue', 'giftcard.void']);
    expect(events.find((e) => e.action === 'giftcard.void')).toMatchObject({ actor: manager.username, role: 'manager', changes: { balance: { before: 60, after: 0 } } });

    // Spent: refused like an empty card, and no order is stored.
    const shopper = await newCustomer('voided');
    const orders = db().collection('orders').where('uid', '==', shopper.uid);
    const spend = await expectUnchangedIn([orders, db().collection('giftCards').doc(card.id)], () =>
      http('/api/orders', { method: 'POST', token: shopper.token, json: { ...validOrder(shopper.email, [books[0]!]), giftCardCode: card.code } }));
    expect(spend.status).toBe(422);
    expect(spend.body.code).toBe('GIFT_CARD_EMPTY');
    expect((await orders.get()).size).toBe(0);

    // Voided twice: 409, nothing written twice.
    const again = await expectUnchangedIn([db().collection('giftCards').doc(card.id), auditOf(manager.username)], () => voidCard(manager.token, card.id));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('GIFT_CARD_VOIDED');
  });

  it('needs owner or manager and a recent proof; an unknown id is 404; nothing changes when refused', async () => {
    const manager = await newManager();
    const seller = await newManager('bookseller');
    const card = (await issue(manager.token, { amount: 15 })).body as { id: string };
    const ref = db().collection('giftCards').doc(card.id);
    const scope = [ref, ref.collection('ledger'), db().collection('audit').where('target', '==', `giftCards/${card.id}`)];

    const bySeller = await expectUnchangedIn(scope, () => voidCard(seller.token, card.id));
    expect(bySeller.status).toBe(403);
    const anonymous = await expectUnchangedIn(scope, () => http(`/api/admin/gift-cards/${card.id}/void`, { method: 'POST' }));
    expect(anonymous.status).toBe(401);
    await ageProofs(manager.username);
    const stale = await expectUnchangedIn(scope, () => voidCard(manager.token, card.id));
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual(REAUTH);
    expect((await reauth(manager.token)).status).toBe(200);
    for (const id of ['0'.repeat(40), 'not-a-card']) {
      const missing = await voidCard(manager.token, id);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: 'Gift card not found' });
    }
    expect((await ref.get()).data()?.balanceCents).toBe(1500);
    expect((await voidCard(manager.token, card.id)).status).toBe(200);
  });
});
