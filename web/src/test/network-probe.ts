import { PROBE_URL } from '../lib/network-status';

// Component tests render forms that check the network when they open (lib/network-status.ts); there
// is no server in happy-dom, so the probe is answered here as a reachable origin would. A test that
// stubs fetch itself (vi.stubGlobal) replaces this along with everything else.
if (typeof window !== 'undefined') {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    String(input) === PROBE_URL ? Promise.resolve(new Response('ok')) : realFetch(input, init);
}
