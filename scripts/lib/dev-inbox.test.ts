import { describe, expect, it } from 'vitest';
import { pageOf, throttlingPolicy, type ReceivedMail } from './dev-inbox';

// The inbox page lists 50 at a time (a test run sends thousands): newest first, by recipient, with a cursor.
const mail = (id: number, to: string): ReceivedMail => ({ id, from: 'shop@example.com', to: [to], subject: `Mail ${id}`, receivedAt: new Date(id * 1000).toISOString(), text: '', html: '' });
const newestFirst = Array.from({ length: 120 }, (_, i) => mail(120 - i, (120 - i) % 3 === 0 ? 'Reader@Example.com' : `other${120 - i}@example.com`));

describe('the inbox page', () => {
  it('shows the newest 50, then the next 50 from the cursor, then the rest with no further link', () => {
    const first = pageOf(newestFirst, new URLSearchParams());
    expect(first.shown.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => 120 - i));
    expect(first).toMatchObject({ matched: 120, older: 71 });
    const second = pageOf(newestFirst, new URLSearchParams({ before: '71' }));
    expect(second.shown.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => 70 - i));
    const last = pageOf(newestFirst, new URLSearchParams({ before: String(second.older) }));
    expect(last.shown.map((m) => m.id)).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(last.older).toBeNull();
  });

  it('filters by recipient, whatever its case', () => {
    const view = pageOf(newestFirst, new URLSearchParams({ to: ' reader@example.COM ' }));
    expect(view.matched).toBe(40);
    expect(view.shown.every((m) => m.id % 3 === 0)).toBe(true);
    expect(view.older).toBeNull();
  });
});

describe("the inbox's refusing domains", () => {
  it('throttled.test: 421 for the first two tries of each address, then accepted; refused.test: 550 always; others accepted', () => {
    const policy = throttlingPolicy();
    expect(policy('a@throttled.test')).toMatchObject({ code: 421 });
    expect(policy('b@throttled.test')).toMatchObject({ code: 421 }); // counted per address
    expect(policy('A@Throttled.test')).toMatchObject({ code: 421 });
    expect(policy('a@throttled.test')).toBeNull();
    expect(policy('a@throttled.test')).toBeNull();
    expect(policy('b@throttled.test')).toMatchObject({ code: 421 });
    expect(policy('b@throttled.test')).toBeNull();
    for (let i = 0; i < 3; i++) expect(policy('x@refused.test')).toMatchObject({ code: 550 });
    expect(policy('reader@example.com')).toBeNull();
    expect(policy('x@not-throttled.test')).toBeNull();
  });
});
