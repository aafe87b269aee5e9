import { describe, expect, it } from 'vitest';
import { priceOrder, type FulfilmentSettings } from './pricing';
import {
  DiscountCreateSchema, discountCentsFor, discountVerdict, formatGiftCardCode, GIFT_CARD_ALPHABET, giftCardCheckSymbol, giftCardCodeIsValid, GiftCardCodeSchema,
  normaliseGiftCardCode, shardAllowances, type StoredDiscount,
} from './promotions';

const rule = (over: Partial<StoredDiscount> = {}): StoredDiscount => ({
  code: 'X', percentOffBp: 1000, amountOffCents: null, minSubtotalCents: 0, maxRedemptions: null, oncePerCustomer: false, startsAt: null, endsAt: null,
  categories: [], paused: false, redemptions: 0, createdAt: '', updatedAt: '', createdBy: 'admin', ...over,
});

describe('the discount rule (docs/api.md, "Discount codes")', () => {
  it('percent off the eligible books\' sum, rounded half up once (not per book)', () => {
    const books = [{ priceCents: 1999 }, { priceCents: 2100 }, { priceCents: 2201 }];
    // 14.99% of 63.00 = 9.44370 -> 944; per book: 299.65 -> 300, 314.79 -> 315, 329.93 -> 330 = 945.
    expect(discountCentsFor(rule({ percentOffBp: 1499 }), books)).toBe(944);
    expect(discountCentsFor(rule({ percentOffBp: 5000 }), [{ priceCents: 1 }])).toBe(1); // 0.5 cent rounds up
  });

  it('only the books of its categories; an amount off at most their sum', () => {
    const books = [{ priceCents: 1000, category: 'fiction' }, { priceCents: 3000, category: 'horror' }];
    expect(discountCentsFor(rule({ categories: ['horror'] }), books)).toBe(300);
    expect(discountCentsFor(rule({ percentOffBp: null, amountOffCents: 5000, categories: ['fiction'] }), books)).toBe(1000);
  });

  it('says why not: paused, not yet, expired, minimum, categories, used, exhausted (in that order)', () => {
    const books = [{ priceCents: 1000, category: 'fiction' }];
    const now = '2026-06-01T00:00:00.000Z';
    expect(discountVerdict(undefined, books, now)).toMatchObject({ ok: false, status: 404, code: 'DISCOUNT_UNKNOWN' });
    expect(discountVerdict(rule({ paused: true }), books, now)).toMatchObject({ code: 'DISCOUNT_PAUSED' });
    expect(discountVerdict(rule({ startsAt: '2026-07-01T00:00:00.000Z' }), books, now)).toMatchObject({ status: 422, code: 'DISCOUNT_NOT_STARTED' });
    expect(discountVerdict(rule({ endsAt: now }), books, now)).toMatchObject({ code: 'DISCOUNT_EXPIRED' });
    expect(discountVerdict(rule({ minSubtotalCents: 1001 }), books, now)).toMatchObject({ code: 'DISCOUNT_MIN_SUBTOTAL' });
    expect(discountVerdict(rule({ categories: ['horror'] }), books, now)).toMatchObject({ code: 'DISCOUNT_NO_ELIGIBLE_BOOKS' });
    expect(discountVerdict(rule({ oncePerCustomer: true }), books, now, true)).toMatchObject({ code: 'DISCOUNT_ALREADY_USED' });
    expect(discountVerdict(rule({ maxRedemptions: 4, redemptions: 4 }), books, now)).toMatchObject({ status: 409, code: 'DISCOUNT_EXHAUSTED' });
    expect(discountVerdict(rule({ maxRedemptions: 4, redemptions: 3 }), books, now)).toEqual({ ok: true, cents: 100, label: '10% off' });
  });

  it('comes off the books before shipping and tax: tax on the discounted books', () => {
    const settings = {
      pickup: { enabled: true, address: 'Shop', hours: '9-5', holdDays: 7 },
      local: { enabled: false, priceCents: 0, country: '', zipcodes: [] },
      post: { enabled: false, freeFromCents: null, zones: [] },
      defaultWeightGrams: 500,
      tax: { mode: 'added', label: 'Sales tax', rateBp: 1000, regions: [] },
    } satisfies FulfilmentSettings;
    const priced = priceOrder(settings, [{ priceCents: 2000 }], 'pickup', {}, 500);
    expect(priced).toMatchObject({ ok: true, subtotalCents: 2000, discountCents: 500, taxCents: 150, totalCents: 1650 });
  });

  it('validates a new code: exactly one of percentOff and amountOff, dates in order', () => {
    expect(DiscountCreateSchema.safeParse({ code: 'ok10', percentOff: 10 }).data?.code).toBe('OK10');
    expect(DiscountCreateSchema.safeParse({ code: 'OK10', percentOff: 10, amountOff: 1 }).success).toBe(false);
    expect(DiscountCreateSchema.safeParse({ code: 'OK10', amountOff: '2.50' }).data?.amountOff).toBe(250);
    expect(DiscountCreateSchema.safeParse({ code: 'OK10', percentOff: 10, startsAt: '2026-02-01T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' }).success).toBe(false);
  });
});

describe('gift card codes', () => {
  const body = 'K3V9QX7M2PA4T8R';
  const code = body + giftCardCheckSymbol(body);

  it('a check symbol catches every single mistyped symbol and every swap of two different neighbours', () => {
    expect(giftCardCodeIsValid(code)).toBe(true);
    for (let i = 0; i < 16; i++) {
      for (const c of GIFT_CARD_ALPHABET) {
        if (c === code[i]) continue;
        expect(giftCardCodeIsValid(code.slice(0, i) + c + code.slice(i + 1))).toBe(false);
      }
    }
    for (let i = 0; i < 15; i++) {
      if (code[i] === code[i + 1]) continue;
      const swapped = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2);
      expect(giftCardCodeIsValid(swapped), swapped).toBe(false);
    }
  });

  it('reads a code as typed: any case, spaces and dashes, O for 0 and I or L for 1', () => {
    expect(normaliseGiftCardCode(formatGiftCardCode(code).toLowerCase())).toBe(code);
    expect(GiftCardCodeSchema.safeParse(` ${formatGiftCardCode(code)} `.replace(/0/g, 'O')).data).toBe(code);
    expect(GiftCardCodeSchema.safeParse('ABCD').success).toBe(false);
  });
});

describe('sharded codes (decision 040)', () => {
  it('spreads maxRedemptions over the shards, the first ones one more, summing to the limit', () => {
    expect(shardAllowances(7, 3)).toEqual([3, 2, 2]);
    expect(shardAllowances(8, 4)).toEqual([2, 2, 2, 2]);
    for (const [max, n] of [[10_000_000, 50], [51, 50], [2, 2]] as const) expect(shardAllowances(max, n).reduce((a, b) => a + b, 0)).toBe(max);
  });

  it('a code with shards needs maxRedemptions of at least its shards', () => {
    const base = { code: 'FLASH-1', percentOff: 10 };
    expect(DiscountCreateSchema.safeParse({ ...base, shards: 8, maxRedemptions: 1000 }).success).toBe(true);
    expect(DiscountCreateSchema.safeParse({ ...base, shards: 8 }).success).toBe(false);
    expect(DiscountCreateSchema.safeParse({ ...base, shards: 8, maxRedemptions: 7 }).success).toBe(false);
    expect(DiscountCreateSchema.safeParse({ ...base, shards: 51, maxRedemptions: 1000 }).success).toBe(false);
  });
});
