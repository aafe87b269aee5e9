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
