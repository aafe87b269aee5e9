import { describe, expect, it } from 'vitest';
import { mailboxKey } from './subscriptions';

describe('mailboxKey (issue 36: one budget per mailbox, however the address is spelled)', () => {
  it('reads case, +tags, Gmail dots and googlemail.com as one mailbox, and nothing more', () => {
    for (const spelling of ['ann.lee@gmail.com', 'AnnLee@Gmail.com', 'a.n.n.l.e.e+news@gmail.com', 'annlee+x+y@googlemail.com', ' ann.Lee@GOOGLEMAIL.COM ']) {
      expect(mailboxKey(spelling), spelling).toBe('annlee@gmail.com');
    }
    expect(mailboxKey('ann.lee+shop@example.com')).toBe('ann.lee@example.com'); // dots are the provider's business elsewhere
    expect(mailboxKey('ann.lee@example.com')).not.toBe(mailboxKey('annlee@example.com'));
    expect(mailboxKey('+only@example.com')).toBe('+only@example.com'); // a local part that is all tag stays
    expect(mailboxKey('gmail.com@example.org')).toBe('gmail.com@example.org');
  });
});
