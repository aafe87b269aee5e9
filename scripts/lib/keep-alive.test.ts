import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';

// The launcher preloads keep-alive.cjs into the firebase CLI: its servers must keep idle
// connections open past a test's pause between two requests.

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe('keep-alive', () => {
  it("raises Node's 5 s keep-alive of every server that listens, and its headers timeout beyond it", async () => {
    createRequire(import.meta.url)('./keep-alive.cjs');
    server = createServer((_req, res) => res.end('ok'));
    expect(server.keepAliveTimeout).toBe(5_000); // Node's default, until it listens
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    expect(server.keepAliveTimeout).toBe(65_000);
    expect(server.headersTimeout).toBeGreaterThan(65_000);
  });
});
