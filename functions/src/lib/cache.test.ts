import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { describe, expect, it } from 'vitest';
import { noStoreByDefault } from './cache';
import { errorHandler, notFound } from './errors';
import { HttpError } from './http-error';

/** An app built as the api and pages functions build theirs: the default first, the error handler last. */
function app(build: (app: Express) => void): Express {
  const app = express();
  app.use(noStoreByDefault);
  build(app);
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

async function get(handler: Express, path = '/') {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  } finally {
    server.close();
  }
}

describe('cache headers', () => {
  it('makes an answer no-store unless its handler opts into caching', async () => {
    expect((await get(app((a) => a.get('/', (_req, res) => res.send('x'))))).headers.get('cache-control')).toBe('no-store');
    const cached = await get(app((a) => a.get('/', (_req, res) => res.set('Cache-Control', 'public, s-maxage=60').send('x'))));
    expect(cached.headers.get('cache-control')).toBe('public, s-maxage=60');
  });

  it('makes every error no-store, even after a handler chose to cache', async () => {
    const YEAR = 'public, max-age=31536000, immutable';
    const failing = app((a) => {
      // Each handler chose to cache the answer, then failed.
      a.get('/http/:status', (req, res) => {
        res.set('Cache-Control', YEAR);
        throw new HttpError(Number(req.params.status), 'refused');
      });
      a.get('/crash', (_req, res) => {
        res.set('Cache-Control', YEAR);
        throw new Error('a bug');
      });
      a.get('/async', async (_req, res) => {
        res.set('Cache-Control', YEAR);
        await Promise.resolve();
        throw new HttpError(404, 'gone');
      });
      a.use((_req, res, next) => {
        res.set('Cache-Control', YEAR);
        next(); // to notFound
      });
    });
    for (const [path, status] of [['/http/404', 404], ['/http/401', 401], ['/crash', 500], ['/async', 404], ['/nowhere', 404]] as const) {
      const res = await get(failing, path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});
