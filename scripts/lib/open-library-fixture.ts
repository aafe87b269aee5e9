import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { OPEN_LIBRARY_FIXTURE_PORT, ROOT } from './env';

// A stand-in for Open Library's Books API on loopback, answering from the fixtures beside this file
// (functions/test/fixtures/open-library/README.md: hand-written, in the shape of Open Library's documented
// examples). `npm test` runs one for the whole suite and points the function at it
// (OPEN_LIBRARY_ORIGIN, scripts/test.ts): files that run at once share it, so none stops it to see
// an outage; an outage is the ISBNs of OUTAGE_PREFIX, whose requests it drops unanswered.
// `GET /_hits` says what it was asked, per bibkey.

/** ISBN-13s with this prefix stand for Open Library unreachable: the connection is dropped. */
export const OUTAGE_PREFIX = '97899999';

/** A valid ISBN-13 in the outage range, new each time (so no function instance has it cached). */
export function outageIsbn(): string {
  const body = `${OUTAGE_PREFIX}${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

/** How often the suite's fixture was asked for each bibkey (`ISBN:<13 digits>`). */
export async function fixtureHits(origin: string): Promise<Record<string, number>> {
  return (await (await fetch(`${origin}/_hits`)).json()) as Record<string, number>;
}

const DIR = join(ROOT, 'functions', 'test', 'fixtures', 'open-library');

export interface OpenLibraryFixture {
  origin: string;
  /** Requests per bibkey, to see what the function's cache saved. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startOpenLibraryFixture(port = OPEN_LIBRARY_FIXTURE_PORT): Promise<OpenLibraryFixture> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/_hits') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(Object.fromEntries(hits)));
    if (url.searchParams.get('bibkeys')?.startsWith(`ISBN:${OUTAGE_PREFIX}`)) return void req.socket.destroy();
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
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
