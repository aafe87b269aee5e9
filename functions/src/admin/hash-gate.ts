import { HttpError } from '../lib/http-error';

/**
 * A small semaphore for password hashing: each scrypt takes 32 MiB and ~100 ms of CPU, so one
 * instance (256 MiB, up to 40 requests at once) runs at most `limit` and lets `queue` more wait;
 * the rest are turned away at once with 503 and Retry-After, before any hash is computed.
 */
export function createHashGate(limit: number, queue: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= limit) {
        if (waiting.length >= queue) {
          throw new HttpError(503, 'Too many sign-in attempts at once. Try again in a moment.', {}, { 'Retry-After': '1' });
        }
        await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over, running unchanged
      } else {
        running += 1;
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
    get busy() {
      return { running, waiting: waiting.length };
    },
  };
}
