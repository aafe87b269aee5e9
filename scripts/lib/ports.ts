import { createServer } from 'node:net';
import { HOST, PORTS } from './env';

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on now (the system's choice), for a server started next to the suite's fixed ones. */
export function freePort(host = HOST): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Throws naming every busy port, before anything is started. */
export async function assertPortsFree(): Promise<void> {
  const busy: string[] = [];
  for (const [name, port] of Object.entries(PORTS)) {
    // The Firestore replacement listens on every interface, so check both.
    if (!(await isFree(port, HOST)) || !(await isFree(port, '0.0.0.0'))) busy.push(`${port} (${name})`);
  }
  if (busy.length > 0) {
    throw new Error(
      `Port ${busy.join(', ')} ${busy.length > 1 ? 'are' : 'is'} already in use. ` +
        'Stop the other process (is the shop already running?) and try again.',
    );
  }
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Timed out after ${timeoutMs / 1000}s waiting for ${what}`);
}
