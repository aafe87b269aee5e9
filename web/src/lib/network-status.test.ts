import { describe, expect, it } from 'vitest';
import { createNetworkStatus, FRESH_CHECK_MS, MAX_PROBE_DELAY_MS } from './network-status';

/** A browser whose navigator.onLine, network and clock the test sets; timers run when time advances. */
function fakeBrowser() {
  const state = { browserOnline: true, reachable: true, time: 0, probes: 0 };
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 0;
  const status = createNetworkStatus({
    browserOnline: () => state.browserOnline,
    probe: async () => {
      state.probes += 1;
      return state.reachable;
    },
    setTimer: (fn, ms) => {
      timers.push({ at: state.time + ms, fn, id: ++nextId });
      return nextId;
    },
    clearTimer: (id) => (timers = timers.filter((t) => t.id !== id)),
    now: () => state.time,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  /** Moves the clock on, running each timer due and letting its probe answer. */
  async function advance(ms: number) {
    const end = state.time + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      state.time = due.at;
      due.fn();
      await settle();
    }
    state.time = end;
  }
  return { state, status, settle, advance };
}

describe('network status', () => {
  it('starts online and follows the browser when it says offline', () => {
    const { state, status } = fakeBrowser();
    expect(status.online()).toBe(true);
    state.browserOnline = false;
    status.browserChanged();
    expect(status.online()).toBe(false);
  });

  it('lie-fi: the browser says online, a request fails, so the shop is offline until a probe gets through', async () => {
    const { state, status, advance } = fakeBrowser();
    let changes = 0;
    status.subscribe(() => (changes += 1));
    state.reachable = false;
    status.reportFailure();
    expect(status.online()).toBe(false);
    await advance(1_000 + 2_000 + 4_000); // three probes, still failing
    expect(status.online()).toBe(false);
    expect(state.probes).toBe(3);
    state.reachable = true; // the network is back; no browser event says so
    await advance(MAX_PROBE_DELAY_MS);
    expect(status.online()).toBe(true);
    expect(changes).toBe(2);
    const probes = state.probes;
    await advance(60_000); // online again: no more probing
    expect(state.probes).toBe(probes);
  });

  it("a form opening checks once: lie-fi after a reload shows offline without any other request", async () => {
    const { state, status, settle } = fakeBrowser();
    state.reachable = false; // a fresh page: navigator.onLine is true, nothing has failed yet
    status.checkIfStale();
    status.checkIfStale(); // a second form on the same page does not probe again
    await settle();
    expect(status.online()).toBe(false);
    expect(state.probes).toBe(1);
  });

  it('a recent check is not repeated; an old one is', async () => {
    const { state, status, settle, advance } = fakeBrowser();
    status.checkIfStale();
    await settle();
    status.checkIfStale();
    await settle();
    expect(state.probes).toBe(1);
    await advance(FRESH_CHECK_MS);
    status.checkIfStale();
    await settle();
    expect(state.probes).toBe(2);
  });

  it("the browser's 'online' event is checked, not believed", async () => {
    const { state, status, settle } = fakeBrowser();
    state.browserOnline = false;
    status.browserChanged();
    state.browserOnline = true; // the event fires, but the Wi-Fi has no way out
    state.reachable = false;
    status.browserChanged();
    await settle();
    expect(status.online()).toBe(false);
    state.reachable = true;
    status.browserChanged();
    await settle();
    expect(status.online()).toBe(true);
  });

  it('offline by the browser: no probing until it says online again', async () => {
    const { state, status, advance } = fakeBrowser();
    state.browserOnline = false;
    status.browserChanged();
    status.reportFailure();
    await advance(60_000);
    expect(state.probes).toBe(0);
    expect(status.online()).toBe(false);
  });
});
