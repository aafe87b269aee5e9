import { describe, expect, it } from 'vitest';
import {
  AdminOrdersQuerySchema,
  OrderInputSchema,
  canTransition,
  countsInRevenue,
  CustomerOrdersQuerySchema,
  nextStatuses,
  ORDER_STATUSES,
  OrderStatusChangeSchema,
  type OrderActor,
  type OrderStatus,
} from './order';
import { shortOrderId, specialOrderOrderId } from './order-id';

// The lifecycle from issue 11, written out move by move, so a change to the table shows up here.
const ALLOWED: [OrderStatus, OrderStatus, OrderActor[]][] = [
  ['pending', 'confirmed', ['admin']],
  ['pending', 'cancelled', ['admin', 'customer']],
  ['confirmed', 'shipped', ['admin']],
  ['confirmed', 'cancelled', ['admin', 'customer']],
  ['shipped', 'delivered', ['admin']],
  ['shipped', 'refused', ['admin']],
];

describe('order lifecycle', () => {
  it('allows exactly the listed moves, to exactly the listed actors', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        for (const actor of ['admin', 'customer'] as const) {
          const expected = ALLOWED.some(([f, t, who]) => f === from && t === to && who.includes(actor));
          expect(canTransition(from, to, actor), `${from} -> ${to} by ${actor}`).toBe(expected);
        }
      }
    }
  });

  it('lets a customer only cancel, and only while pending or confirmed', () => {
    expect(nextStatuses('pending', 'customer')).toEqual(['cancelled']);
    expect(nextStatuses('confirmed', 'customer')).toEqual(['cancelled']);
    expect(nextStatuses('shipped', 'customer')).toEqual([]);
    expect(nextStatuses('shipped', 'admin')).toEqual(['delivered', 'refused']);
    for (const final of ['delivered', 'cancelled', 'refused'] as const) expect(nextStatuses(final, 'admin')).toEqual([]);
  });

  it('takes cancelled and refused orders out of revenue', () => {
    expect(ORDER_STATUSES.filter((s) => !countsInRevenue(s))).toEqual(['cancelled', 'refused']);
  });
});

describe('order request schemas', () => {
  it('parses a status change with an optional trimmed note', () => {
    expect(OrderStatusChangeSchema.parse({ status: 'refused', note: '  not home ' })).toEqual({ status: 'refused', note: 'not home' });
    expect(OrderStatusChangeSchema.parse({ status: 'shipped', note: '' })).toEqual({ status: 'shipped' });
    expect(OrderStatusChangeSchema.safeParse({ status: 'lost' }).success).toBe(false);
    expect(OrderStatusChangeSchema.safeParse({ status: 'shipped', note: 'x'.repeat(501) }).success).toBe(false);
  });

  it('defaults the desk to all orders, 25 a page, and the customer list to 10 (at most 20)', () => {
    expect(AdminOrdersQuerySchema.parse({})).toEqual({ status: 'all', limit: 25 });
    expect(AdminOrdersQuerySchema.parse({ status: 'pending', q: ' a@b.co ', limit: '5' })).toEqual({ status: 'pending', q: 'a@b.co', limit: 5 });
    expect(AdminOrdersQuerySchema.safeParse({ status: 'lost' }).success).toBe(false);
    expect(CustomerOrdersQuerySchema.parse({})).toEqual({ limit: 10 });
    expect(CustomerOrdersQuerySchema.safeParse({ limit: 21 }).success).toBe(false);
    expect(CustomerOrdersQuerySchema.safeParse({ cursor: 'a/b' }).success).toBe(false);
  });
});

describe('order input', () => {
  it('refuses a book listed twice, naming it', () => {
    const order = {
      name: 'Ann', email: 'ann@example.com', phone: '5550100', totalPrice: '10.00',
      address: { street: '1 Main St', city: 'Springfield', country: 'US', state: 'IL', zipcode: '62701' },
    };
    expect(OrderInputSchema.safeParse({ ...order, productIDs: ['a', 'b'] }).success).toBe(true);
    const repeated = OrderInputSchema.safeParse({ ...order, productIDs: ['a', 'b', 'a'] });
    expect(repeated.success).toBe(false);
    expect(repeated.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['productIDs', 'Repeated book ids: a']]);
  });
});

describe('shortOrderId', () => {
  it("is an id's first 8 characters, after the special- of a special order's order (every such order once read 'special-')", () => {
    expect(shortOrderId('Ab12Cd34Ef56Gh78')).toBe('Ab12Cd34');
    expect(shortOrderId(specialOrderOrderId('Zy98Xw76Vu54'))).toBe('special-Zy98Xw76');
    expect(shortOrderId('short')).toBe('short');
  });
});
