import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { OPEN_LIBRARY_FIXTURE_PORT, ROOT } from './env';

// A stand-in for Open Library's Books API on loopback, answering from the fixtures beside this file
// (functions/test/fixtures/open-library/README.md: hand-written, in the shape of Open Library's documented
// examples). The test suite points the function at it (OPEN_LIBRARY_ORIGIN, scripts/test.ts).

const DIR = join(ROOT, 'functions', 'test', 'fixtures', 'open-library');

export interface OpenLibraryFixture {
  /** Requests per bibkey, to see what the function's cache saved. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startOpenLibraryFixture(port = OPEN_LIBRARY_FIXTURE_PORT): Promise<OpenLibraryFixture> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname !== '/api/books' || url.searchParams.get('jscmd') !== 'data' || url.searchParams.get('format') !== 'json') {
      return res.writeHead(400, { 'Content-Type': 'text/plain' }).end('unexpected request');
    }
    const bibkey = url.searchParams.get('bibkeys') ?? '';
    hits.set(bibkey, (hits.get(bibkey) ?? 0) + 1);
    const file = join(DIR, `${bibkey.replace(':', '-')}.json`);
    const body = /^ISBN:\d{13}$/.test(bibkey) && existsSync(file) ? readFileSync(file, 'utf8') : '{}';
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
