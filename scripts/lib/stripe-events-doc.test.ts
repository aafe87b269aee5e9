import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUBSCRIBED_EVENTS } from '../../functions/src/payments/webhook.handlers';
import { STRIPE_API_VERSION } from '../../functions/src/payments/stripe-client';
import { ROOT } from './env';

// The operator subscribes the webhook endpoint to what docs/operations.md lists (issue 54): the list
// must be exactly the events the webhook handles, and the API version the SDK's.

const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');

describe('the operations guide names what the Stripe webhook needs', () => {
  it('lists exactly the events the webhook handles', () => {
    const block = /<!-- stripe-events -->([\s\S]*?)<!-- \/stripe-events -->/.exec(operations)?.[1] ?? '';
    const listed = [...block.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]);
    expect([...listed].sort()).toEqual([...SUBSCRIBED_EVENTS()].sort());
  });

  it('names the API version the SDK is pinned to', () => {
    expect(operations).toContain(`\`${STRIPE_API_VERSION}\``);
  });
});
