import { describe, expect, it } from 'vitest';
import { LOGIN_MAX_DELAY_MS } from '../config';
import { loginDelayMs } from './admins.repo';
import { addressKey, clientAddress, forwardedEntry, hostingClientAddress } from './client-address';
import { createHashGate } from './hash-gate';

describe('loginDelayMs', () => {
  it('lets 4 failures pass, then waits 1, 2, 4, 8 minutes, capped at 15', () => {
    expect([1, 2, 3, 4].map(loginDelayMs)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => loginDelayMs(n) / 60_000)).toEqual([1, 2, 4, 8]);
    expect(loginDelayMs(9)).toBe(LOGIN_MAX_DELAY_MS);
    expect(loginDelayMs(1000)).toBe(LOGIN_MAX_DELAY_MS);
  });
});

describe('clientAddress', () => {
  const req = (xff?: string, ip = '127.0.0.1') => ({ headers: xff === undefined ? {} : { 'x-forwarded-for': xff }, ip });
  const production = { K_SERVICE: 'api' };
  const emulator = { FUNCTIONS_EMULATOR: 'true' };

  it('in production takes the last entry, the one Google\'s front end appended, never what the caller wrote before it (issue 55)', () => {
    expect(clientAddress(req('198.51.100.7'), production)).toBe('198.51.100.7');
    // Twelve forged first entries, one client.
    const forged = Array.from({ length: 12 }, (_, i) => clientAddress(req(`10.0.0.${i}, 192.0.2.${i}, 198.51.100.7`), production));
    expect(new Set(forged)).toEqual(new Set(['198.51.100.7']));
    // A header repeated (Node joins them), stray spaces and empty entries: still the last one.
    expect(clientAddress({ headers: { 'x-forwarded-for': ['6.6.6.6', ' 7.7.7.7 ,, 198.51.100.7 '] as never }, ip: '127.0.0.1' }, production)).toBe('198.51.100.7');
    expect(clientAddress(req('6.6.6.6, 2001:db8:1:2::99'), production)).toBe('2001:0db8:0001:0002::/64');
    expect(clientAddress(req(' , '), production)).toBe('127.0.0.1');
  });

  it('forwardedEntry: the entry hops from the right, never past the first', () => {
    expect(forwardedEntry('a, b, c')).toBe('c');
    expect(forwardedEntry('a, b, c', 1)).toBe('b');
    expect(forwardedEntry('c', 3)).toBe('c');
    expect(forwardedEntry(undefined)).toBeUndefined();
    expect(forwardedEntry('')).toBeUndefined();
  });

  it('in the emulator takes the last entry, or req.ip', () => {
    expect(clientAddress(req('10.0.0.1, 203.0.113.9'), emulator)).toBe('203.0.113.9');
    expect(clientAddress(req(undefined, '::ffff:127.0.0.1'), emulator)).toBe('127.0.0.1');
  });

  it('for the sign-up limits, never an entry the caller wrote (issue 36): Hosting\'s in production, the connection\'s locally', () => {
    const withSocket = (xff: string | undefined, remote: string) => ({ ...req(xff), socket: { remoteAddress: remote } });
    expect(hostingClientAddress(withSocket('6.6.6.6, 130.211.0.1, 198.51.100.7', '10.1.2.3') as never, production)).toBe('198.51.100.7');
    // Locally the Hosting emulator passes the header through as written: every entry is the caller's.
    for (const xff of ['203.0.113.1', '203.0.113.2, 203.0.113.3', undefined]) {
      expect(hostingClientAddress(withSocket(xff, '::ffff:127.0.0.1') as never, emulator)).toBe('127.0.0.1');
    }
  });

  it('counts IPv6 by /64 and keeps garbage apart from real addresses', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:0db8:0001:0002::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:0db8:0001:0002::/64');
    expect(addressKey('[2001:db8::1]:443')).toBe('2001:0db8:0000:0000::/64');
    expect(addressKey('not an ip')).toBe('other:not an ip');
    expect(addressKey('')).toBe('other:unknown');
  });
});

describe('createHashGate', () => {
  it('runs at most `limit` at once, queues `queue` more and turns the rest away with 503 and Retry-After', async () => {
    const gate = createHashGate(2, 1);
    const releases: (() => void)[] = [];
    let peak = 0;
    let active = 0;
    const work = () =>
      gate.run(
        () =>
          new Promise<string>((resolve) => {
            active += 1;
            peak = Math.max(peak, active);
            releases.push(() => {
              active -= 1;
              resolve('done');
            });
          }),
      );
    const first = [work(), work(), work()];
    const refused = await work().catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
    expect(gate.busy).toEqual({ running: 2, waiting: 1 });
    while (releases.length > 0 || active > 0) {
      releases.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(await Promise.all(first)).toEqual(['done', 'done', 'done']);
    expect(peak).toBe(2);
    expect(gate.busy).toEqual({ running: 0, waiting: 0 });
  });

  it('frees its slot when the work throws', async () => {
    const gate = createHashGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(() => Promise.resolve(1))).toBe(1);
  });
});
