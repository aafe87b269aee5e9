import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COVER_FETCH, CoverFetchError, coverFetchPolicy, fetchCover, urlProblem, type CoverFetchPolicy } from './cover-fetch';

// The cover fetcher's rules (issue 26) against a real HTTP server on loopback: redirects, size,
// type and time limits. Names are resolved by a fake resolver (no DNS here), so a "public" name can
// be made to resolve to a private address, as an attacker's DNS would.

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const local: CoverFetchPolicy = { ...COVER_FETCH, local: true, timeoutMs: 1_000 };
const production: CoverFetchPolicy = { ...COVER_FETCH, local: false };

let server: Server;
let origin = '';
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url!);
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/cover.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    if (url.pathname === '/hop') {
      const n = Number(url.searchParams.get('n'));
      return res.writeHead(302, { Location: n > 0 ? `/hop?n=${n - 1}` : '/cover.png' }).end();
    }
    if (url.pathname === '/to') return res.writeHead(301, { Location: url.searchParams.get('u')! }).end();
    if (url.pathname === '/big') {
      res.writeHead(200, { 'Content-Type': 'image/png' }); // no length: counted while it streams
      res.write(PNG);
      const chunk = Buffer.alloc(64 * 1024);
      let sent = 0;
      const push = () => {
        while (sent < 10 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', push);
        }
        res.end();
      };
      return push();
    }
    if (url.pathname === '/html') return res.writeHead(200, { 'Content-Type': 'image/png' }).end('<html>not an image</html>');
    if (url.pathname === '/slow') return; // never answers
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const message = (p: Promise<unknown>) => p.then(() => 'fetched', (e: unknown) => (e instanceof CoverFetchError ? e.message : `unexpected ${e}`));

describe('urlProblem', () => {
  it('production: https on 443 to public hosts only', () => {
    expect(urlProblem(new URL('https://covers.example.com/a.jpg'), production)).toBeNull();
    expect(urlProblem(new URL('http://covers.example.com/a.jpg'), production)).toBe('Cover URL must be an https:// address');
    expect(urlProblem(new URL('https://covers.example.com:8443/a.jpg'), production)).toMatch(/port/);
    expect(urlProblem(new URL('https://127.0.0.1/a.jpg'), production)).toMatch(/127\.0\.0\.1 is a private or reserved address/);
    expect(urlProblem(new URL('https://[::1]/a.jpg'), production)).toMatch(/private or reserved/);
    expect(urlProblem(new URL('https://169.254.169.254/latest/meta-data/'), production)).toMatch(/169\.254\.169\.254/);
    expect(urlProblem(new URL('https://user:pw@covers.example.com/a.jpg'), production)).toMatch(/user name or password/);
    expect(urlProblem(new URL('ftp://covers.example.com/a.jpg'), production)).not.toBeNull();
  });

  it('emulators: http, other ports and loopback too, but never the metadata server or private ranges', () => {
    expect(urlProblem(new URL('http://127.0.0.1:9999/a.png'), local)).toBeNull();
    expect(urlProblem(new URL('http://169.254.169.254/latest/meta-data/'), local)).toMatch(/169\.254\.169\.254/);
    expect(urlProblem(new URL('http://10.1.2.3/a.png'), local)).toMatch(/private or reserved/);
    expect(urlProblem(new URL('file:///etc/passwd'), local)).not.toBeNull();
  });
});

describe('coverFetchPolicy', () => {
  it('is local only in the Functions emulator talking to a loopback Firestore', () => {
    expect(coverFetchPolicy({ FUNCTIONS_EMULATOR: 'true', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' }).local).toBe(true);
    expect(coverFetchPolicy({ FUNCTIONS_EMULATOR: 'true' }).local).toBe(false);
    expect(coverFetchPolicy({ FUNCTIONS_EMULATOR: 'true', FIRESTORE_EMULATOR_HOST: '10.0.0.5:8080' }).local).toBe(false);
    expect(coverFetchPolicy({ K_SERVICE: 'api', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' }).local).toBe(false);
  });
});

describe('fetchCover', () => {
  it('fetches an image, sniffing its type from the bytes', async () => {
    const cover = await fetchCover(`${origin}/cover.png`, local);
    expect(cover.type.ext).toBe('png');
    expect(cover.bytes.equals(PNG)).toBe(true);
  });

  it('refuses loopback in production before connecting', async () => {
    const before = hits.length;
    expect(await message(fetchCover(`${origin}/cover.png`, production))).toBe('Cover URL must be an https:// address');
    expect(await message(fetchCover(`https://127.0.0.1/cover.png`, production))).toMatch(/private or reserved/);
    expect(hits.length).toBe(before);
  });

  it('follows at most 3 redirects', async () => {
    expect((await fetchCover(`${origin}/hop?n=2`, local)).type.ext).toBe('png'); // 3 redirects
    expect(await message(fetchCover(`${origin}/hop?n=3`, local))).toBe('Cover URL redirected more than 3 times');
  });

  it('checks every redirect: to the metadata server, a private address, another scheme', async () => {
    const before = hits.length;
    expect(await message(fetchCover(`${origin}/to?u=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`, local))).toMatch(/redirected to a refused address.*169\.254\.169\.254/);
    expect(await message(fetchCover(`${origin}/to?u=${encodeURIComponent('http://192.168.0.1/a.png')}`, local))).toMatch(/redirected to a refused address/);
    expect(await message(fetchCover(`${origin}/to?u=${encodeURIComponent('file:///etc/passwd')}`, local))).toMatch(/redirected to a refused address/);
    expect(hits.length).toBe(before + 3); // only the redirecting requests reached a server
  });

  it('checks the addresses a name resolves to, and refuses a name with any private one', async () => {
    const port = new URL(origin).port;
    const resolver = (addresses: string[]) => (_host: string, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    expect(await message(fetchCover(`http://covers.test:${port}/cover.png`, local, resolver(['169.254.169.254'])))).toMatch(/covers\.test resolves to 169\.254\.169\.254/);
    expect(await message(fetchCover(`http://covers.test:${port}/cover.png`, local, resolver(['127.0.0.1', '10.0.0.7'])))).toMatch(/10\.0\.0\.7/);
    expect((await fetchCover(`http://covers.test:${port}/cover.png`, local, resolver(['127.0.0.1']))).type.ext).toBe('png');
    // The same name in production: loopback is refused too.
    expect(await message(fetchCover(`https://covers.test/cover.png`, production, resolver(['127.0.0.1'])))).toMatch(/resolves to 127\.0\.0\.1/);
  });

  it('stops reading a 10 MB body at 2 MB', async () => {
    const started = Date.now();
    expect(await message(fetchCover(`${origin}/big`, local))).toBe('Cover at the URL is larger than 2 MB');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses what is not an image, whatever its Content-Type says, and error statuses', async () => {
    expect(await message(fetchCover(`${origin}/html`, local))).toBe('Cover at the URL is not a PNG, JPEG, WebP or GIF image');
    expect(await message(fetchCover(`${origin}/missing`, local))).toBe('Cover URL answered 404');
  });

  it('gives up on a server that does not answer in time', async () => {
    const started = Date.now();
    expect(await message(fetchCover(`${origin}/slow`, { ...local, timeoutMs: 300 }))).toBe('Cover URL did not answer within 0.3 s');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
