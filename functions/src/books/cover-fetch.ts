import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { MAX_COVER_BYTES } from '@bookstore/contract';
import { isLoopbackHost } from '../config';
import { addressProblem } from '../lib/public-address';
import { sniffImage, type ImageType } from './covers';

// Covers from URLs (issue 26): the function fetches the image once, server-side, and stores it as
// its own (covers.ts saveCover, content-addressed), so no shopper's browser ever asks another
// host for it. A URL is an attacker's way into the server's network (SSRF), so the fetch is
// hemmed in: https only (port 443) in production; every address DNS gives must be public, checked
// on the address the socket then connects to (no second lookup to rebind), and again for each
// redirect (at most 3); 5 s for the whole chain; at most 2 MB, counted as it streams; the type
// read from the bytes. Plain http, other ports and loopback only on the emulators, where the tests
// serve the images from this machine.

export const COVER_FETCH = { timeoutMs: 5_000, maxBytes: MAX_COVER_BYTES, maxRedirects: 3 } as const;

export interface CoverFetchPolicy {
  /** The emulators: http, any port and loopback addresses too (private ranges stay refused). */
  local: boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

/**
 * The emulators' policy only when the function runs in the Functions emulator AND talks to a
 * loopback Firestore emulator: a stray FUNCTIONS_EMULATOR in a deployed environment is not enough
 * (config.ts assertSafeEnvironment refuses emulator variables that point off the machine).
 */
export function coverFetchPolicy(env: NodeJS.ProcessEnv = process.env): CoverFetchPolicy {
  const local = env.FUNCTIONS_EMULATOR === 'true' && Boolean(env.FIRESTORE_EMULATOR_HOST) && isLoopbackHost(env.FIRESTORE_EMULATOR_HOST!);
  return { local, ...COVER_FETCH };
}

/** A cover that could not be fetched: the message is the import row's (or the form field's) error. */
export class CoverFetchError extends Error {}

/** Why this URL may not be requested at all (scheme, credentials, port), before any network. */
export function urlProblem(url: URL, policy: Pick<CoverFetchPolicy, 'local'>): string | null {
  if (url.protocol !== 'https:' && !(policy.local && url.protocol === 'http:')) return 'Cover URL must be an https:// address';
  if (url.username || url.password) return 'Cover URL must not carry a user name or password';
  if (!policy.local && url.port !== '' && url.port !== '443') return 'Cover URL must use the standard https port (443)';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const problem = addressProblem(host, { allowLoopback: policy.local });
    if (problem) return `Cover URL points at ${problem}`;
  }
  return null;
}

type Resolver = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

/**
 * A `lookup` for http.request that resolves the name once, refuses if ANY address is not public
 * (a name that mixes a public and a private address is someone's trick), and hands the socket
 * exactly the addresses it checked.
 */
export function checkedLookup(policy: Pick<CoverFetchPolicy, 'local'>, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const usable = addresses.filter((a) => !options.family || a.family === options.family);
      if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      for (const a of usable) {
        const problem = addressProblem(a.address, { allowLoopback: policy.local });
        if (problem) return callback(new CoverFetchError(`Cover URL's host ${hostname} resolves to ${problem}`), '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

interface Hop {
  status: number;
  location?: string;
  bytes?: Buffer;
}

function request(url: URL, policy: CoverFetchPolicy, signal: AbortSignal, resolve: Resolver | undefined): Promise<Hop> {
  return new Promise((done, fail) => {
    const module = url.protocol === 'https:' ? https : http;
    const req = module.request(url, {
      method: 'GET',
      headers: { Accept: 'image/png,image/jpeg,image/webp,image/gif', 'User-Agent': 'BookstoreCoverFetcher/1.0' },
      lookup: checkedLookup(policy, resolve),
      agent: false, // a fresh connection to the address just checked, never a pooled one
      signal,
    });
    req.on('error', fail);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.resume();
        return done({ status, location: res.headers.location });
      }
      if (status < 200 || status >= 300) {
        res.resume();
        return done({ status });
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxBytes) {
        res.destroy();
        return fail(new CoverFetchError(`Cover at the URL is larger than ${policy.maxBytes / 1024 / 1024} MB`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) {
          res.destroy();
          fail(new CoverFetchError(`Cover at the URL is larger than ${policy.maxBytes / 1024 / 1024} MB`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => done({ status, bytes: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.end();
  });
}

/**
 * The image at `address`, fetched under `policy`: its bytes and type. Throws CoverFetchError with a
 * message for the row or field; nothing is stored here (saveCover does that with the bytes).
 */
export async function fetchCover(address: string, policy: CoverFetchPolicy = coverFetchPolicy(), resolve?: Resolver): Promise<{ bytes: Buffer; type: ImageType }> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new CoverFetchError('Cover URL must be an https:// address');
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), policy.timeoutMs);
  try {
    for (let hops = 0; ; hops += 1) {
      const problem = urlProblem(url, policy);
      if (problem) throw new CoverFetchError(hops > 0 ? `Cover URL redirected to a refused address: ${problem.replace(/^Cover URL /, '')}` : problem);
      const hop = await request(url, policy, controller.signal, resolve);
      if (hop.status >= 300 && hop.status < 400) {
        if (!hop.location) throw new CoverFetchError(`Cover URL answered ${hop.status} without a Location`);
        if (hops >= policy.maxRedirects) throw new CoverFetchError(`Cover URL redirected more than ${policy.maxRedirects} times`);
        try {
          url = new URL(hop.location, url);
        } catch {
          throw new CoverFetchError('Cover URL redirected to an address that is not a URL');
        }
        continue;
      }
      if (hop.status < 200 || hop.status >= 300) throw new CoverFetchError(`Cover URL answered ${hop.status}`);
      const type = sniffImage(hop.bytes!);
      if (!type) throw new CoverFetchError('Cover at the URL is not a PNG, JPEG, WebP or GIF image');
      return { bytes: hop.bytes!, type };
    }
  } catch (error) {
    if (error instanceof CoverFetchError) throw error;
    if (controller.signal.aborted) throw new CoverFetchError(`Cover URL did not answer within ${policy.timeoutMs / 1000} s`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new CoverFetchError(`Cover URL's host ${url.hostname} was not found`);
    throw new CoverFetchError(`Cover URL could not be fetched${code ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(timer);
  }
}
