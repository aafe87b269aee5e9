import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { withCacheDefaults } from './cache';

async function serve(handler: Parameters<typeof withCacheDefaults>[0]) {
  const server = createServer(withCacheDefaults(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    return await fetch(url);
  } finally {
    server.close();
  }
}

describe('withCacheDefaults', () => {
  it('makes an answer no-store unless its handler opts into caching', async () => {
    expect((await serve((_req, res) => res.end('x'))).headers.get('cache-control')).toBe('no-store');
    const cached = await serve((_req, res) => {
      res.setHeader('Cache-Control', 'public, s-maxage=60');
      res.end('x');
    });
    expect(cached.headers.get('cache-control')).toBe('public, s-maxage=60');
  });

  it('makes every error no-store, even after a handler chose to cache', async () => {
    for (const status of [404, 401, 500]) {
      const res = await serve((_req, res) => {
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        res.statusCode = status;
        res.end('{}');
      });
      expect(res.status).toBe(status);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});
