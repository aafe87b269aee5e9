import { formatDate, shopDay } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { adminToken, db, expectUnchangedIn, http, newCustomer, NEEDS_TRANSACTIONS, officialBackend, type Reply } from './helpers';

// Special orders (issue 41) over HTTP to the real function over the Firestore emulator: a shopper's
// request for a book the shop does not list, quoted by the desk (mailed), accepted as an order at
// the quoted price, ordered, arrived (mailed), collected; at most 10 open requests per account.
// Titles come from the suite's stand-in for Open Library (scripts/lib/open-library-fixture.ts).

/** A valid ISBN-13 under 979-14 (other files use other prefixes), unique per call. */
let seq = 0;
function isbn(): string {
  const body = `97914${String(Date.now() % 1e5).padStart(5, '0')}${String((seq += 1) % 100).padStart(2, '0')}`.slice(0, 12);
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

/** The shop's day `days` from today (YYYY-MM-DD): a quote's date is from today to a year ahead (issue 55). */
function ahead(days: number): string {
  const at = new Date(`${shopDay(new Date())}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

const ask = (token: string, json: unknown) => http('/api/special-orders', { method: 'POST', token, json });
const move = async (id: string, json: unknown) => http(`/api/admin/special-orders/${id}/status`, { method: 'POST', token: await adminToken(), json });
/** The audit events of one document, by its path. */
const audit = async (target: string) => (await db().collection('audit').where('target', '==', target).get()).docs.map((d) => d.data());
/** The account's numbered places of open requests (functions/src/special-orders/open-places.ts). */
const placesOf = async (uid: string) => (await db().collection('customers').doc(uid).collection('specialOrderPlaces').get()).docs;
const mailsOf = async (id: string) => (await db().collection('mail').where('__name__', '>=', `special-${id}-`).where('__name__', '<', `special-${id}-\uf8ff`).get()).docs;

describe('special orders', () => {
  it('takes a request with a checked ISBN, fills the title from the lookup, and refuses a bad check digit with nothing stored', async () => {
    const shopper = await newCustomer('special');
    const made = await ask(shopper.token, { isbn: '0-306-40615-2', quantity: 2, note: 'For a gift' });
    expect(made.status).toBe(201);
    expect(made.body.specialOrder).toMatchObject({ isbn: '9780306406157', title: "The Lantern Keeper's Atlas", quantity: 2, note: 'For a gift', status: 'requested' });

    const count = async () => (await db().collection('specialOrders').where('uid', '==', shopper.uid).get()).size;
    const bad = await ask(shopper.token, { isbn: '9780306406158', quantity: 1 });
    expect(bad.status).toBe(400);
    expect(await count()).toBe(1); // nothing stored
    expect(bad.body.message).toMatch(/ISBN/);
    expect((await ask(shopper.token, { isbn: isbn(), quantity: 0 })).status).toBe(400);
    expect((await http('/api/special-orders', { method: 'POST', json: { isbn: isbn(), quantity: 1 } })).status).toBe(401);

    // The title the shopper gives is kept; an ISBN Open Library does not know keeps the ISBN as title.
    const titled = await ask(shopper.token, { isbn: isbn(), title: 'A Book I Heard Of', quantity: 1 });
    expect(titled.body.specialOrder.title).toBe('A Book I Heard Of');
    const unknown = isbn();
    expect((await ask(shopper.token, { isbn: unknown, quantity: 1 })).body.specialOrder.title).toBe(`ISBN ${unknown}`);
  });

  it('a shopper lists only their own requests, paged; the desk lists them by status', async () => {
    const [alice, bob] = [await newCustomer('special-a'), await newCustomer('special-b')];
    for (let i = 0; i < 3; i++) expect((await ask(alice.token, { isbn: isbn(), title: `Alice wants ${i}`, quantity: 1 })).status).toBe(201);
    const bobs = await ask(bob.token, { isbn: isbn(), title: 'Bob wants', quantity: 1 });
    const first = await http('/api/special-orders?limit=2', { token: alice.token });
    expect(first.status).toBe(200);
    expect(first.body.specialOrders.map((s: any) => s.title)).toEqual(['Alice wants 2', 'Alice wants 1']);
    const second = await http(`/api/special-orders?limit=2&cursor=${first.body.nextCursor}`, { token: alice.token });
    expect(second.body.specialOrders.map((s: any) => s.title)).toEqual(['Alice wants 0']);
    expect(second.body.nextCursor).toBeNull();
    // Bob's request is not Alice's to answer: as if it did not exist.
    expect((await http(`/api/special-orders/${bobs.body.specialOrder._id}/decline`, { method: 'POST', token: alice.token })).status).toBe(404);

    const desk = await http('/api/admin/special-orders?status=requested&limit=50', { token: await adminToken() });
    expect(desk.status).toBe(200);
    expect(desk.body.specialOrders.every((s: any) => s.status === 'requested')).toBe(true);
    // The desk's pages of one status: 2 at a time, newest first, none twice, until Alice's three are all seen.
    const seen: any[] = [];
    let cursor: string | null = '';
    for (let page = 0; page < 50 && cursor !== null && seen.filter((s) => s.title.startsWith('Alice wants')).length < 3; page++) {
      const next: Reply<{ specialOrders: any[]; nextCursor: string | null }> = await http(`/api/admin/special-orders?status=requested&limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: await adminToken() });
      expect(next.status).toBe(200);
      expect(next.body.specialOrders.length).toBeLessThanOrEqual(2);
      seen.push(...next.body.specialOrders);
      cursor = next.body.nextCursor;
    }
    expect(new Set(seen.map((s) => s._id)).size).toBe(seen.length);
    expect(seen.every((s) => s.status === 'requested')).toBe(true);
    const dates = seen.map((s) => s.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(seen.filter((s) => s.title.startsWith('Alice wants')).map((s) => s.title)).toEqual(['Alice wants 2', 'Alice wants 1', 'Alice wants 0']);
    expect((await http('/api/admin/special-orders', { token: alice.token })).status).toBe(401);
  });

  it('the lifecycle: quoted (mailed) -> accepted as an order at the quoted price -> ordered -> arrived (mailed) -> collected; wrong moves are 409', async () => {
    const shopper = await newCustomer('special-life');
    const made = await ask(shopper.token, { isbn: isbn(), title: 'The Long Way Round', quantity: 2 });
    const id = made.body.specialOrder._id as string;

    // Not yet quoted: cannot be ordered, accepted; a quote needs a price and a date.
    expect((await move(id, { status: 'ordered' })).body).toMatchObject({ code: 'INVALID_TRANSITION', status: 'requested' });
    expect((await http(`/api/special-orders/${id}/accept`, { method: 'POST', token: shopper.token, json: { phone: '5551234567' } })).status).toBe(409);
    expect((await move(id, { status: 'quoted' })).status).toBe(400);

    const expectedOn = ahead(45);
    const quoted = await move(id, { status: 'quoted', price: '18.50', expectedOn });
    expect(quoted.status).toBe(200);
    expect(quoted.body.specialOrder).toMatchObject({ status: 'quoted', price: 18.5, expectedOn });
    const quoteMail = (await db().collection('mail').doc(`special-${id}-quoted-1`).get()).data()!;
    expect(quoteMail.to).toBe(shopper.email.toLowerCase());
    expect(quoteMail.message.text).toContain('$18.50 a copy, $37.00 in all');
    expect(quoteMail.message.text).toContain(formatDate(`${expectedOn}T12:00:00Z`)); // e.g. 'January 20, 2027'

    const accepted = await http(`/api/special-orders/${id}/accept`, { method: 'POST', token: shopper.token, json: { name: 'Long Reader', phone: '5551234567' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.specialOrder).toMatchObject({ status: 'accepted', orderId: `special-${id}` });
    expect(accepted.body.order).toMatchObject({ _id: `special-${id}`, status: 'pending', totalPrice: 37, delivery: { method: 'pickup' } });
    expect(accepted.body.order.items.map((l: any) => [l.title, l.unitPrice])).toEqual([['The Long Way Round', 18.5], ['The Long Way Round', 18.5]]);
    // It is the shopper's order like any other, and its placement mail went out.
    const mine = await http(`/api/orders/special-${id}`, { token: shopper.token });
    expect(mine.status).toBe(200);
    const placedMail = (await db().collection('mail').doc(`special-${id}-placed`).get()).data()!;
    // Named by the request's own id, not by the "special-" every such order shares.
    expect(placedMail.message.subject).toContain(`(order SPECIAL-${id.slice(0, 8).toUpperCase()})`);
    // Accepting twice places nothing more.
    expect((await http(`/api/special-orders/${id}/accept`, { method: 'POST', token: shopper.token, json: { phone: '5551234567' } })).status).toBe(409);

    expect((await move(id, { status: 'arrived' })).status).toBe(409); // not ordered yet
    expect((await move(id, { status: 'ordered' })).body.specialOrder.status).toBe('ordered');
    expect((await move(id, { status: 'arrived' })).body.specialOrder.status).toBe('arrived');
    const arrivedMail = (await db().collection('mail').doc(`special-${id}-arrived-1`).get()).data()!;
    expect(arrivedMail.message.subject).toContain('Your special order has arrived');
    expect((await db().collection('customers').doc(shopper.uid).get()).data()!.openOrders).toBe(1);
    expect((await move(id, { status: 'collected' })).body.specialOrder.status).toBe('collected');
    expect((await move(id, { status: 'cancelled' })).status).toBe(409); // over
    // Its pickup order was collected with it, as the desk collects one: its event, its mail, the account's open orders.
    const order = (await db().collection('orders').doc(`special-${id}`).get()).data()!;
    expect(order.status).toBe('collected');
    expect(order.events.at(-1)).toMatchObject({ from: 'pending', to: 'collected', by: { kind: 'admin', id: 'owner' }, note: 'Special order collected' });
    expect((await mailsOf(id)).map((d) => d.id).sort()).toEqual([`special-${id}-arrived-1`, `special-${id}-collected`, `special-${id}-placed`, `special-${id}-quoted-1`].sort());
    const account = (await db().collection('customers').doc(shopper.uid).get()).data()!;
    expect(account).toMatchObject({ openOrders: 0 });
    expect(await placesOf(shopper.uid)).toHaveLength(0); // its place given back
    // Both moves are links of the audit chain: the request's and its order's.
    expect((await audit(`orders/special-${id}`)).map((e) => [e.action, e.changes.status])).toEqual([['order.status', { before: 'pending', after: 'collected' }]]);
    expect((await audit(`specialOrders/${id}`)).filter((e) => e.changes.status.after === 'collected')).toHaveLength(1);
  });

  it('a request and its order end together: cancelling the request cancels its unpaid order, and an order cancelled by the shopper or the desk closes its request', async () => {
    const shopper = await newCustomer('special-cancel');
    const accept = (id: string) => http(`/api/special-orders/${id}/accept`, { method: 'POST', token: shopper.token, json: { phone: '5551234567' } });
    const quotedRequest = async (title: string) => {
      const id = (await ask(shopper.token, { isbn: isbn(), title, quantity: 1 })).body.specialOrder._id as string;
      expect((await move(id, { status: 'quoted', price: 12, expectedOn: ahead(85) })).status).toBe(200);
      expect((await accept(id)).status).toBe(200);
      return id;
    };
    /** The account's open orders and the places its open requests hold. */
    const account = async () => ({ openOrders: (await db().collection('customers').doc(shopper.uid).get()).get('openOrders'), places: (await placesOf(shopper.uid)).length });
    const request = async (id: string) => (await db().collection('specialOrders').doc(id).get()).data()!;
    const first = await quotedRequest('Cancelled With Its Order');
    expect((await move(first, { status: 'ordered' })).status).toBe(200);
    const cancelled = await move(first, { status: 'cancelled' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.specialOrder.status).toBe('cancelled');
    const order = (await db().collection('orders').doc(`special-${first}`).get()).data()!;
    expect(order.status).toBe('cancelled');
    expect(order.events.at(-1)).toMatchObject({ from: 'pending', to: 'cancelled', note: 'Special order cancelled' });
    expect((await db().collection('mail').doc(`special-${first}-cancelled`).get()).exists).toBe(true);
    expect(await account()).toEqual({ openOrders: 0, places: 0 });
    expect((await request(first)).history.filter((h: any) => h.status === 'cancelled')).toHaveLength(1);

    // The shopper cancels the order of another accepted request: the request is cancelled with it (by
    // the shopper), the account has both places back, and the desk can no longer move it on.
    const second = await quotedRequest('Order Cancelled By The Shopper');
    expect(await account()).toEqual({ openOrders: 1, places: 1 });
    expect((await http(`/api/orders/special-${second}/cancel`, { method: 'POST', token: shopper.token })).status).toBe(200);
    expect(await request(second)).toMatchObject({ status: 'cancelled', orderId: `special-${second}` });
    expect((await request(second)).history.at(-1)).toMatchObject({ status: 'cancelled', by: 'customer' });
    expect(await account()).toEqual({ openOrders: 0, places: 0 });
    const listed = await http('/api/special-orders?limit=50', { token: shopper.token });
    expect(listed.body.specialOrders.find((s: any) => s._id === second).status).toBe('cancelled');
    const scope = [db().collection('specialOrders').doc(second), db().collection('orders').doc(`special-${second}`), db().collection('customers').doc(shopper.uid), db().collection('customers').doc(shopper.uid).collection('specialOrderPlaces')];
    const refused = await expectUnchangedIn(scope, () => move(second, { status: 'ordered' }));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_TRANSITION', status: 'cancelled' });

    // The desk cancels a third one's order on the order desk: its request is closed by staff.
    const third = await quotedRequest('Order Cancelled At The Desk');
    expect((await move(third, { status: 'ordered' })).status).toBe(200);
    const atDesk = await http(`/api/admin/orders/special-${third}/status`, { method: 'POST', token: await adminToken(), json: { status: 'cancelled' } });
    expect(atDesk.status).toBe(200);
    expect((await request(third)).history.at(-1)).toMatchObject({ status: 'cancelled', by: 'staff' });
    expect((await audit(`specialOrders/${third}`)).map((e) => e.changes.status)).toContainEqual({ before: 'ordered', after: 'cancelled' });
    expect(await account()).toEqual({ openOrders: 0, places: 0 });
    // Cancelling the request again is a wrong move, and the order keeps its one cancel.
    expect((await move(third, { status: 'cancelled' })).status).toBe(409);
    expect((await db().collection('orders').doc(`special-${third}`).get()).data()!.events).toHaveLength(1);
  });

  it('a shopper declines a quote: closed, no order', async () => {
    const shopper = await newCustomer('special-no');
    const id = (await ask(shopper.token, { isbn: isbn(), title: 'Maybe Not', quantity: 1 })).body.specialOrder._id as string;
    await move(id, { status: 'quoted', price: 40, expectedOn: ahead(57) });
    const declined = await http(`/api/special-orders/${id}/decline`, { method: 'POST', token: shopper.token });
    expect(declined.status).toBe(200);
    expect(declined.body.specialOrder.status).toBe('declined');
    expect((await db().collection('orders').doc(`special-${id}`).get()).exists).toBe(false);
  });

  it.skipIf(!officialBackend)(`at most 10 open requests per account, held when 12 arrive at once ${officialBackend ? '' : NEEDS_TRANSACTIONS}`, async () => {
    const shopper = await newCustomer('special-many');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => ask(shopper.token, { isbn: isbn(), title: `Wanted ${i}`, quantity: 1 })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(2);
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({ code: 'TOO_MANY_SPECIAL_ORDERS', limit: 10 });
    const stored = await db().collection('specialOrders').where('uid', '==', shopper.uid).get();
    expect(stored.size).toBe(10);
    // Each holds a place of its own, and the account's places are exactly theirs.
    const places = await placesOf(shopper.uid);
    expect(places.map((p) => Number(p.id)).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(stored.docs.map((d) => d.get('place'))).size).toBe(10);
    expect(Object.fromEntries(places.map((p) => [p.id, p.get('requestId')]))).toEqual(Object.fromEntries(stored.docs.map((d) => [String(d.get('place')), d.id])));
    // Cancelling one frees a place.
    const one = answers.find((a) => a.status === 201)!.body.specialOrder._id;
    expect((await http(`/api/special-orders/${one}/cancel`, { method: 'POST', token: shopper.token })).status).toBe(200);
    expect((await ask(shopper.token, { isbn: isbn(), title: 'One more', quantity: 1 })).status).toBe(201);
  });

  it('requests stored before the numbered places still count: the account count of their time holds places back until they close', async () => {
    const shopper = await newCustomer('special-legacy');
    // As the shop stored them before: 9 open requests counted on the account, no place on a request.
    const at = new Date().toISOString();
    const legacy = db().collection('specialOrders').doc();
    await legacy.set({
      uid: shopper.uid, email: shopper.email, isbn: isbn(), title: 'Asked For Last Year', quantity: 1, status: 'requested',
      history: [{ status: 'requested', at, by: 'customer' }], createdAt: at, updatedAt: at,
    });
    await db().collection('customers').doc(shopper.uid).set({ openSpecialOrders: 9 }, { merge: true });
    expect((await ask(shopper.token, { isbn: isbn(), title: 'The Tenth', quantity: 1 })).status).toBe(201);
    const eleventh = await expectUnchangedIn([db().collection('specialOrders').where('uid', '==', shopper.uid), db().collection('customers').doc(shopper.uid).collection('specialOrderPlaces')],
      () => ask(shopper.token, { isbn: isbn(), title: 'The Eleventh', quantity: 1 }));
    expect(eleventh.status).toBe(409);
    expect(eleventh.body).toMatchObject({ code: 'TOO_MANY_SPECIAL_ORDERS', limit: 10, message: expect.stringContaining('You already have 10 open requests') });
    // Cancelling the old request takes it off the account's count, and frees a place.
    expect((await http(`/api/special-orders/${legacy.id}/cancel`, { method: 'POST', token: shopper.token })).status).toBe(200);
    expect((await db().collection('customers').doc(shopper.uid).get()).get('openSpecialOrders')).toBe(8);
    expect((await ask(shopper.token, { isbn: isbn(), title: 'The Eleventh, Again', quantity: 1 })).status).toBe(201);
    expect(await placesOf(shopper.uid)).toHaveLength(2);
  });

  it('a quote is bounded (issue 55): at most 1,000.00 a copy, a date from today to a year ahead; 400 naming the field, nothing changed', async () => {
    const shopper = await newCustomer('special-bounds');
    const id = (await ask(shopper.token, { isbn: isbn(), title: 'Bounded', quantity: 1 })).body.specialOrder._id as string;
    const ref = db().collection('specialOrders').doc(id);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ price: 10_000, expectedOn: ahead(30) }, 'price', "A quote's price is at most 1,000.00 a copy"],
      [{ price: '1000.01', expectedOn: ahead(30) }, 'price', "A quote's price is at most 1,000.00 a copy"],
      [{ price: 0, expectedOn: ahead(30) }, 'price', 'A quote needs a price above 0'],
      [{ price: 20, expectedOn: ahead(-1) }, 'expectedOn', 'The expected date cannot be in the past'],
      [{ price: 20, expectedOn: '1999-01-01' }, 'expectedOn', 'The expected date cannot be in the past'],
      [{ price: 20, expectedOn: ahead(367) }, 'expectedOn', 'The expected date is at most a year ahead'],
      [{ price: 20, expectedOn: '2207-06-01' }, 'expectedOn', 'The expected date is at most a year ahead'],
      [{ price: 20, expectedOn: '2027-02-30' }, 'expectedOn', 'A quote needs an expected date'],
    ];
    for (const [quote, field, message] of cases) {
      const res = await expectUnchangedIn([ref, db().collection('mail').doc(`special-${id}-quoted-1`)], () => move(id, { status: 'quoted', ...quote }));
      expect(res.status, JSON.stringify(quote)).toBe(400);
      expect(res.body.details?.[field], JSON.stringify(quote)).toEqual([message]);
    }
    expect((await ref.get()).data()?.status).toBe('requested');
    // The edges themselves are fine: 1,000.00 a copy, today, a year ahead.
    expect((await move(id, { status: 'quoted', price: '1000.00', expectedOn: ahead(0) })).status).toBe(200);
    const other = (await ask(shopper.token, { isbn: isbn(), title: 'Bounded too', quantity: 1 })).body.specialOrder._id as string;
    expect((await move(other, { status: 'quoted', price: 999.99, expectedOn: ahead(365) })).status).toBe(200);
  });

  it('requests are limited per account (issue 55): 20 a day, counted even when cancelled; the 21st is 429 with Retry-After and nothing stored; another account is not held', async () => {
    const shopper = await newCustomer('special-budget');
    const mine = db().collection('specialOrders').where('uid', '==', shopper.uid);
    // Made and cancelled, so the 10 open requests never hold them: only the day's budget does.
    for (let i = 0; i < 20; i++) {
      const made = await ask(shopper.token, { isbn: isbn(), title: `Churn ${i}`, quantity: 1 });
      expect(made.status, `request ${i + 1}`).toBe(201);
      expect((await http(`/api/special-orders/${made.body.specialOrder._id}/cancel`, { method: 'POST', token: shopper.token })).status).toBe(200);
    }
    const refused = await expectUnchangedIn([mine], () => ask(shopper.token, { isbn: isbn(), title: 'One too many', quantity: 1 }));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/At most 20 special-order requests a day/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await mine.get()).size).toBe(20);
    const other = await newCustomer('special-budget-other');
    expect((await ask(other.token, { isbn: isbn(), title: 'Not held', quantity: 1 })).status).toBe(201);
  });

  it('ISBN lookups are limited per account (issue 55): past 5 an hour, a request is still taken, titled by its ISBN, without asking Open Library', async () => {
    const shopper = await newCustomer('special-lookups');
    // The suite's Open Library stand-in knows this ISBN (the first test above).
    const titles: string[] = [];
    for (let i = 0; i < 6; i++) {
      const made = await ask(shopper.token, { isbn: '9780306406157', quantity: 1 });
      expect(made.status).toBe(201);
      titles.push(made.body.specialOrder.title);
      await http(`/api/special-orders/${made.body.specialOrder._id}/cancel`, { method: 'POST', token: shopper.token });
    }
    expect(titles.slice(0, 5)).toEqual(Array(5).fill("The Lantern Keeper's Atlas"));
    expect(titles[5]).toBe('ISBN 9780306406157');
  });
});
