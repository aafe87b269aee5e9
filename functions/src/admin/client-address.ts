import { isIPv4, isIPv6 } from 'node:net';
import type { Request } from 'express';
import { PRODUCTION_PROXY_HOPS } from '../config';

/**
 * The client address the login throttle is keyed on.
 *
 * X-Forwarded-For is a list that every proxy appends to, and the client may start it with
 * anything it likes, so its first entry is not evidence of anything. We count from the right
 * instead: in production Firebase Hosting's edge appends the client's address, then Cloud Run's
 * Google Front End appends the edge's (`<client's own text>, <client>, <edge>`), so the client is
 * PRODUCTION_PROXY_HOPS from the right. The emulators add nothing (the Hosting emulator copies the
 * header through), so there it is the last entry, and req.ip without a header.
 * IPv6 addresses count by their /64, the block one subscriber usually holds.
 */
export function clientAddress(req: Pick<Request, 'headers' | 'ip'>, env: NodeJS.ProcessEnv = process.env): string {
  const header = req.headers['x-forwarded-for'];
  const list = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const hops = env.FUNCTIONS_EMULATOR === 'true' ? 0 : PRODUCTION_PROXY_HOPS;
  const picked = list.length > 0 ? list[Math.max(0, list.length - 1 - hops)]! : (req.ip ?? '');
  return addressKey(picked);
}

export function addressKey(raw: string): string {
  const address = raw.replace(/^\[|\](:\d+)?$/g, '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
  return `other:${address.slice(0, 64) || 'unknown'}`;
}

function expandIPv6(address: string): string[] {
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const missing = address.includes('::') ? 8 - left.length - right.length : 0;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => group.toLowerCase().padStart(4, '0'));
}

/**
 * The client's address as Firebase Hosting reports it, never an entry the caller wrote: the public
 * sign-up limits (issue 36) key on it. In production it is the entry Hosting's edge appended
 * (PRODUCTION_PROXY_HOPS from the right, as above). The emulators have no edge: the Hosting
 * emulator passes X-Forwarded-For through as the caller wrote it, so there every entry is the
 * caller's and none is read; the address is the connection's own (every local client is then one).
 * The login throttle's second layer keeps reading the last entry locally so its tests can stand for
 * many addresses; its ceiling does not depend on any address.
 */
export function hostingClientAddress(req: Pick<Request, 'headers' | 'ip' | 'socket'>, env: NodeJS.ProcessEnv = process.env): string {
  if (env.FUNCTIONS_EMULATOR === 'true') return addressKey(req.socket?.remoteAddress ?? req.ip ?? '');
  return clientAddress(req, env);
}
