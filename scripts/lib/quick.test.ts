import { describe, expect, it } from 'vitest';
import { isTestAccount, quickPlan } from './quick';

describe('quickPlan', () => {
  it('with no shop running: every lane, on a suite of its own', () => {
    expect(quickPlan([], false)).toEqual({ lanes: ['unit', 'inproc', 'api'], filters: [], boot: true, besideShop: false, skipped: [] });
  });

  it("beside a running shop: unit and inproc on the shop's emulators, the API files left out and said so", () => {
    const plan = quickPlan([], true);
    expect(plan).toMatchObject({ lanes: ['unit', 'inproc'], boot: false, besideShop: true });
    expect(plan.skipped).toEqual([expect.stringMatching(/^api: /)]);
  });

  it('lanes named in any order run in the fixed order; the other words are file filters for each', () => {
    expect(quickPlan(['orders', 'inproc', 'unit'], false)).toMatchObject({ lanes: ['unit', 'inproc'], filters: ['orders'], boot: true });
  });

  it('the unit lane alone needs no emulators: it neither boots a suite nor uses the shop', () => {
    expect(quickPlan(['unit', 'money'], false)).toMatchObject({ lanes: ['unit'], filters: ['money'], boot: false, besideShop: false });
    expect(quickPlan(['unit'], true)).toMatchObject({ lanes: ['unit'], boot: false, besideShop: false, skipped: [] });
  });

  it('the api lane asked for beside a running shop: nothing runs, and the reason is given', () => {
    expect(quickPlan(['api'], true)).toMatchObject({ lanes: [], boot: false, besideShop: false, skipped: [expect.stringMatching(/^api: /)] });
  });
});

describe('isTestAccount', () => {
  const since = Date.parse('2026-12-06T10:45:32.700Z');
  const at = (iso: string) => new Date(iso).toUTCString();

  it('an account signUpCustomer made during the run (its time is to the second)', () => {
    expect(isTestAccount({ email: 'burst12-1796553932701-k3x9q2@example.com', creationTime: at('2026-12-06T10:45:32.900Z') }, since)).toBe(true);
    expect(isTestAccount({ email: 'shopper-1796553999999-a@example.com', creationTime: at('2026-12-06T11:00:00Z') }, since)).toBe(true);
  });

  it("never the shop's own: the demo customer, a developer's sign-up, a test account from before the run, one without an address", () => {
    expect(isTestAccount({ email: 'reader@example.com', creationTime: at('2026-12-06T10:50:00Z') }, since)).toBe(false);
    expect(isTestAccount({ email: 'me-1796553932701-abc@gmail.com', creationTime: at('2026-12-06T10:50:00Z') }, since)).toBe(false);
    expect(isTestAccount({ email: 'shopper-1796553000000-abc@example.com', creationTime: at('2026-12-06T10:45:31Z') }, since)).toBe(false);
    expect(isTestAccount({ creationTime: at('2026-12-06T10:50:00Z') }, since)).toBe(false);
  });
});
