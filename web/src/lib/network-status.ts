// Whether the shop can reach its own origin. `navigator.onLine === false` is reliable, but `true` is
// not: a phone on a captive portal or a dead Wi-Fi ('lie-fi'), and Chromium 150 after a reload under
// Playwright's setOffline, say online while every request fails. So a failed request to our origin
// also means offline, and only a request that reaches the network (a probe the service worker does not
// answer) brings the shop back online (issue 22, docs/decisions/019-online-state.md).

/** A small file Hosting serves and the service worker never caches (its globs skip .txt). */
export const PROBE_URL = '/online.txt';
/** Probes while offline wait 1, 2, 4 s... at most this long, so a returning network shows within it. */
export const MAX_PROBE_DELAY_MS = 4_000;
/** A probe that has not answered by then is a dead network, not a slow one. */
export const PROBE_TIMEOUT_MS = 5_000;
/** A form opening re-checks the network unless a check finished this recently. */
export const FRESH_CHECK_MS = 30_000;

export interface NetworkEnvironment {
  /** navigator.onLine */
  browserOnline(): boolean;
  /** Resolves true when the origin answered at all (any HTTP status), false on a network failure or timeout. */
  probe(): Promise<boolean>;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  now(): number;
}

export interface NetworkStatus {
  online(): boolean;
  subscribe(listener: () => void): () => void;
  /** A request to our origin failed at the network level. */
  reportFailure(): void;
  /** The browser's 'online' / 'offline' events. */
  browserChanged(): void;
  /** Check now unless a check finished within FRESH_CHECK_MS (a form that sends something opened). */
  checkIfStale(): void;
}

export function createNetworkStatus(env: NetworkEnvironment): NetworkStatus {
  let reachable = true; // optimistic until something fails: a first visit is online
  let checking = false;
  let lastCheck = -Infinity;
  let retry: unknown;
  let delay = 1_000;
  const listeners = new Set<() => void>();
  const online = () => env.browserOnline() && reachable;

  const set = (next: boolean) => {
    const before = online();
    reachable = next;
    if (online() !== before) listeners.forEach((l) => l());
  };

  const schedule = () => {
    env.clearTimer(retry);
    retry = env.setTimer(() => void check(), delay);
    delay = Math.min(delay * 2, MAX_PROBE_DELAY_MS);
  };

  async function check(): Promise<void> {
    if (checking) return;
    checking = true;
    const ok = env.browserOnline() && (await env.probe());
    checking = false;
    lastCheck = env.now();
    set(ok);
    if (ok) {
      env.clearTimer(retry);
      delay = 1_000;
    } else if (env.browserOnline()) {
      schedule(); // lie-fi: keep checking; a real 'offline' waits for the browser's 'online' event
    }
  }

  return {
    online,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reportFailure() {
      set(false);
      if (!checking) schedule();
    },
    browserChanged() {
      listeners.forEach((l) => l());
      if (env.browserOnline()) void check();
    },
    checkIfStale() {
      if (env.now() - lastCheck >= FRESH_CHECK_MS) void check();
    },
  };
}

/** The page's one network status (null on the server, where every page renders online). */
export const networkStatus: NetworkStatus | null =
  typeof window === 'undefined'
    ? null
    : createNetworkStatus({
        browserOnline: () => navigator.onLine,
        async probe() {
          try {
            await fetch(PROBE_URL, { cache: 'no-store', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
            return true;
          } catch {
            return false;
          }
        },
        setTimer: (fn, ms) => setTimeout(fn, ms),
        clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
        now: () => Date.now(),
      });

if (networkStatus) {
  const status = networkStatus;
  window.addEventListener('online', () => status.browserChanged());
  window.addEventListener('offline', () => status.browserChanged());
}
