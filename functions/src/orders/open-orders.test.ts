import { MAX_OPEN_ORDERS, OrderInputSchema, ORDER_STATUSES, ORDER_TRANSITIONS, type OrderStatus } from '@bookstore/contract';
import { describe, expect, it } from 'vitest';
import { openOrderLimit, openOrdersDelta, openOrdersOf, requestHash } from './open-orders';

const body = {
  name: 'Ann', email: 'ann@example.com', phone: '5551234567',
  address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' },
  productIDs: ['b1', 'b2'], totalPrice: '12.50',
};
const parse = (value: unknown) => OrderInputSchema.parse(value);

describe('open orders', () => {
  it('every allowed transition moves the count by whether it leaves or enters pending|confirmed', () => {
    const moves: string[] = [];
    for (const from of ORDER_STATUSES) {
      for (const to of Object.keys(ORDER_TRANSITIONS[from]) as OrderStatus[]) moves.push(`${from}->${to} ${openOrdersDelta(from, to)}`);
    }
    expect(moves.sort()).toEqual(
      ['confirmed->cancelled -1', 'confirmed->shipped -1', 'pending->cancelled -1', 'pending->confirmed 0', 'shipped->delivered 0', 'shipped->refused 0'].sort(),
    );
  });

  it('defaults to MAX_OPEN_ORDERS, honours an operator override and never counts below 0', () => {
    expect(openOrderLimit(undefined)).toBe(MAX_OPEN_ORDERS);
    expect(openOrderLimit({ maxOpenOrders: 50 })).toBe(50);
    expect(openOrdersOf(undefined)).toBe(0);
    expect(openOrdersOf({ openOrders: -2 })).toBe(0);
    expect(openOrdersOf({ openOrders: 3 })).toBe(3);
  });
});

describe('requestHash', () => {
  it('is the same for the same parsed order however it was written', () => {
    const reordered = { totalPrice: 12.5, productIDs: ['b1', 'b2'], address: { ...body.address }, phone: 5551234567, email: body.email, name: 'Ann', extra: 'stripped' };
    expect(requestHash('u1', parse(reordered))).toBe(requestHash('u1', parse(body)));
  });

  it('differs for another cart, another address, another total or another account', () => {
    const base = requestHash('u1', parse(body));
    expect(requestHash('u1', parse({ ...body, productIDs: ['b1'] }))).not.toBe(base);
    expect(requestHash('u1', parse({ ...body, productIDs: ['b2', 'b1'] }))).not.toBe(base);
    expect(requestHash('u1', parse({ ...body, address: { ...body.address, street: '2 Main St' } }))).not.toBe(base);
    expect(requestHash('u1', parse({ ...body, totalPrice: '12.51' }))).not.toBe(base);
    expect(requestHash('u2', parse(body))).not.toBe(base);
  });
});
