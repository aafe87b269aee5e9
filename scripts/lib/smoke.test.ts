import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspSources, runSmoke } from './smoke';

// The smoke check against a tiny local server that behaves like a good or a broken deployment.

const GOOD_CSP = "default-src 'self'; script-src 'self' https://apis.google.com; connect-src 'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com; frame-src 'self' https://*.firebaseapp.com; frame-ancestors 'none'";
const SECURITY = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin', 'Permissions-Policy': 'camera=()', 'X-Frame-Options': 'DENY' };
// As the build writes a prerendered page: the start script names the entry module it adds after the load event.
const HTML = '<!doctype html><html><head><script data-entry="/assets/index-abc123.js" data-preload="">(function(){})()</script></head><body></body></html>';

function site(options: { broken: boolean }): Server {
  return createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    const csp = options.broken ? `${GOOD_CSP.replace(' https://apis.google.com', '')} http://127.0.0.1:9099` : GOOD_CSP;
    const headers = { ...SECURITY, 'Content-Security-Policy': csp };
    if (path === '/assets/index-abc123.js') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript', 'Cache-Control': 'public, max-age=31536000, immutable' });
      return res.end(options.broken ? 'connectAuthEmulator(a,"http://127.0.0.1:9099")' : 'console.log(1)');
    }
    if (path.startsWith('/assets/') && !options.broken) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
      return res.end('Not found');
    }
    if (path === '/api/health') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end('{"ok":true}');
    }
    if (path === '/api/books') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end('[{"_id":"b1"}]');
    }
    if (path.startsWith('/__/')) {
      res.writeHead(404);
      return res.end();
    }
    // SPA fallback (a broken deployment also answers missing assets with it, cached for a year)
    res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache' });
    res.end(HTML);
  });
}

const servers: Server[] = [];
async function start(broken: boolean): Promise<string> {
  const server = site({ broken });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
let good: string;
let broken: string;
beforeAll(async () => {
  good = await start(false);
  broken = await start(true);
});
afterAll(() => servers.forEach((s) => s.close()));

describe('runSmoke', () => {
  it('passes a good deployment, skipping what it cannot see, with reasons', async () => {
    const results = await runSmoke(good);
    expect(results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(results.filter((r) => r.status === 'skip').map((r) => r.name)).toEqual(['Auth helper page can be framed', 'book page meta', 'browse page filled']);
    expect(results.find((r) => r.name === 'book page meta')!.detail).toContain('no server-filled og:title');
  });

  it('fails a deployment that serves HTML for missing assets, an emulator build and a CSP that blocks Google sign-in', async () => {
    const failed = (await runSmoke(broken)).filter((r) => r.status === 'fail');
    expect(failed.map((r) => r.name)).toEqual([
      'the app is a production build (no emulator settings)',
      'a missing asset is 404, not HTML',
      'a missing asset is not cached',
      'CSP allows Firebase Auth',
      'CSP names no emulator',
    ]);
    expect(failed[3]!.detail).toBe('blocked: script-src https://apis.google.com');
  });
});

describe('cspSources', () => {
  it('reads a directive, falling back to default-src', () => {
    expect(cspSources(GOOD_CSP, 'connect-src')).toEqual(["'self'", 'https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com']);
    expect(cspSources(GOOD_CSP, 'img-src')).toEqual(["'self'"]);
    expect(cspSources('', 'img-src')).toBeNull();
  });
});
