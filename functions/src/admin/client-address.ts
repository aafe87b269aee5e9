import { isIPv4, isIPv6 } from 'node:net';
import type { Request } from 'express';
import { PRODUCTION_PROXY_HOPS } from '../config';

/**
 * The client address every limit keyed on an address reads (issue 55): the sign-in's address
 * budget, the quote's, the gift-card balance check's, refused orders'.
 *
 * X-Forwarded-For is a list each proxy appends to, and the caller may start it with anything it
 * likes: only what Google's front end appends can be trusted. On Cloud Run behind Hosting that is
 * the LAST entry (PRODUCTION_PROXY_HOPS = 0: nothing after it), so that is the one read; every
 * entry before it the caller can write. The emulators append nothing (the Hosting emulator passes
 * the header on as the caller wrote it): there the last entry stands for the front end's, and
 * req.ip without a header.
 * IPv6 addresses count by their /64, the block one subscriber usually holds.
 */
export function clientAddress(req: Pick<Request, 'headers' | 'ip'>, env: NodeJS.ProcessEnv = process.env): string {
  const hops = env.FUNCTIONS_EMULATOR === 'true' ? 0 : PRODUCTION_PROXY_HOPS;
  return addressKey(forwardedEntry(req.headers['x-forwarded-for'], hops) ?? req.ip ?? '');
}

/**
 * The X-Forwarded-For entry `hops` from the right (0: the last), however the header came (one
 * line, a repeated header joined by Node, empty entries); undefined when there is none.
 */
export function forwardedEntry(header: string | string[] | undefined, hops = 0): string | undefined {
  const list = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return list.length > 0 ? list[Math.max(0, list.length - 1 - hops)] : undefined;
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
 * The client's address for the public sign-up limits (issue 36). In production it is the address
 * above (the last X-Forwarded-For entry). The emulators have no front end: the Hosting emulator
 * passes X-Forwarded-For through as the caller wrote it, so there every entry is the caller's and
 * none is read; the address is the connection's own (every local client is then one).
 * The other limits keep reading the last entry locally so their tests can stand for many addresses.
 */
export function hostingClientAddress(req: Pick<Request, 'headers' | 'ip' | 'socket'>, env: NodeJS.ProcessEnv = process.env): string {
  if (env.FUNCTIONS_EMULATOR === 'true') return addressKey(req.socket?.remoteAddress ?? req.ip ?? '');
  return clientAddress(req, env);
}
