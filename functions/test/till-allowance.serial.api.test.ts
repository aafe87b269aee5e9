import { randomUUID } from 'node:crypto';
import { DEFAULT_COUNTER_ALLOWANCE_CENTS } from '@bookstore/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchangedIn, http, staffToken } from './helpers';

// A bookseller's counter allowance (issue 55) over HTTP on the real emulators: the value a
// bookseller issues or pays out at the counter is limited per till and shop day by a shop setting;
// past it the sale is refused with MANAGER_APPROVAL_REQUIRED and nothing changes, and the till sends
// it again with a manager's approval. Serial: the allowance is a shop-wide setting (set to 300.00
// here and put back after), which every counter test beside it would sell under.

const PASSWORD = 'margins-and-footnotes-9';
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const bookseller = `allow-b-${RUN}`;
const manager = `allow-m-${RUN}`;
const tokens: Record<string, string> = {};

const setAllowance = async (allowance: unknown) => http('/api/admin/settings/counter', { method: 'PUT', token: await adminToken(), json: { allowance } });

beforeAll(async () => {
  const owner = await adminToken();
  for (const [username, role] of [[bookseller, 'bookseller'], [manager, 'manager']] as const) {
    tokens[role] = await staffToken(owner, { username, displayName: `Allowance ${role} ${RUN}`, role, password: PASSWORD });
  }
});
afterAll(async () => {
  expect((await setAllowance(DEFAULT_COUNTER_ALLOWANCE_CENTS / 100)).status).toBe(200);
});

const card = (saleId = randomUUID(), tillId = 'till-1') => ({ saleId, tillId, lines: [{ kind: 'gift_card', amount: '100.00' }], payment: { method: 'cash' } });
const sell = (body: unknown, token = tokens.bookseller) => http('/api/admin/sales', { method: 'POST', token, json: body });

describe("a bookseller's counter allowance", () => {
  it('is a setting owners and managers change (a bookseller cannot), checked as money', async () => {
    expect((await http('/api/admin/settings/counter', { method: 'PUT', token: tokens.bookseller, json: { allowance: 1000 } })).status).toBe(403);
    expect((await setAllowance('-1')).status).toBe(400);
    expect((await setAllowance('12.345')).status).toBe(400);
    const saved = await setAllowance('300.00');
    expect([saved.status, saved.body]).toEqual([200, { allowance: 300 }]);
    expect((await http('/api/admin/settings/counter', { token: tokens.manager })).body).toEqual({ allowance: 300 });
  });

  it("refuses a bookseller's fourth 100.00 gift card of the day on a till (nothing changes), takes it with a manager's approval (the audit names the approver), refuses a bad approval", async () => {
    for (let i = 0; i < 3; i++) expect((await sell(card())).status).toBe(201);
    const fourth = card();
    const scope = [db().collection('sales').doc(fourth.saleId), db().collection('giftCards'), db().collection('counterAllowances')];
    const refused = await expectUnchangedIn(scope, () => sell(fourth));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('MANAGER_APPROVAL_REQUIRED');
    expect(refused.body.message).toMatch(/\$300\.00/);

    // Another till has its own allowance (per till and day).
    expect((await sell(card(randomUUID(), `till-x-${RUN}`.slice(0, 40)))).status).toBe(201);

    const bad = await expectUnchangedIn(scope, () => sell({ ...fourth, approval: { username: manager, password: 'wrong-password-42' } }));
    expect([bad.status, bad.body.code]).toEqual([403, 'APPROVAL_REFUSED']);
    const unknown = await expectUnchangedIn(scope, () => sell({ ...fourth, approval: { username: `nobody-${RUN}`, password: PASSWORD } }));
    expect([unknown.status, unknown.body.code]).toEqual([403, 'APPROVAL_REFUSED']);

    const approved = await sell({ ...fourth, approval: { username: manager, password: PASSWORD } });
    expect(approved.status).toBe(201);
    expect(approved.body.sale.approvedBy).toEqual({ username: manager, name: `Allowance manager ${RUN}` });
    expect(approved.body.sale.by.username).toBe(bookseller);
    const events = (await db().collection('audit').where('target', '==', `sales/${fourth.saleId}`).get()).docs.map((d) => d.data());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: bookseller, action: 'sale.create', changes: { approvedBy: { before: null, after: manager } } });

    // The manager sells on past it unasked.
    expect((await sell(card(), tokens.manager)).status).toBe(201);
  });

  it('lets two sales at once take at most what is left', async () => {
    const till = `till-race-${RUN}`.slice(0, 40);
    expect((await sell({ ...card(randomUUID(), till), lines: [{ kind: 'gift_card', amount: '150.00' }] })).status).toBe(201);
    // 150.00 of 300.00 used: of two 100.00 cards at once, one passes.
    const answers = await Promise.all([sell(card(randomUUID(), till)), sell(card(randomUUID(), till))]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 403]);
    const used = (await db().collection('counterAllowances').where('tillId', '==', till).get()).docs.map((d) => d.data().usedCents);
    expect(used).toEqual([25000]);
  });
});
