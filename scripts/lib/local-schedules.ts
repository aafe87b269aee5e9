import { HOST, PORTS, PROJECT_ID } from './env';

// The shop's scheduled functions (onSchedule: releaseHolds, sweepMail), run locally on their
// schedules. The Functions emulator loads them but never runs them (firebase-tools 15 registers a
// schedule only as a Pub/Sub topic, and only with the Pub/Sub emulator running: firebase-tools
// issue 2034), so `npm start` calls each one itself, the way Cloud Scheduler calls it in
// production: a POST with the scheduler's headers, which firebase-functions' onSchedule answers
// 200 once the run ended (500 if it threw). The call goes through the emulator's route for
// background functions, `/functions/projects/<project>/triggers/<key>`, so the function runs in
// the emulator with its own secrets, as every other function does. `npm test` does not run them
// on a clock (a sweep or a release in the middle of a test would change what it checks): a test
// calls runScheduled when it wants a run.

const FUNCTIONS_URL = `http://${HOST}:${PORTS.functions}`;

export interface ScheduledFunction {
  /** The export's name, e.g. sweepMail. */
  name: string;
  /** `<region>-<name>`, the emulator's id. */
  id: string;
  /** As declared: 'every 1 minutes', 'every 60 minutes'. */
  schedule: string;
}

interface EmulatedTrigger {
  id?: string;
  name?: string;
  schedule?: { schedule?: string };
}

/** The scheduled functions the Functions emulator loaded (its `/backends` listing). */
export async function scheduledFunctions(): Promise<ScheduledFunction[]> {
  const res = await fetch(`${FUNCTIONS_URL}/backends`);
  if (!res.ok) throw new Error(`The Functions emulator's /backends answered ${res.status}`);
  const { backends } = (await res.json()) as { backends: { functionTriggers?: EmulatedTrigger[] }[] };
  return backends
    .flatMap((b) => b.functionTriggers ?? [])
    .filter((t) => t.id && t.name && t.schedule?.schedule)
    .map((t) => ({ name: t.name!, id: t.id!, schedule: t.schedule!.schedule! }));
}

/**
 * Milliseconds between runs for the App Engine cron forms our functions use ('every N minutes',
 * 'every N hours'); null for any other form, which the launcher then names and does not run.
 */
export function scheduleIntervalMs(schedule: string): number | null {
  const match = /^every (\d+) (minute|minutes|mins|hour|hours)$/.exec(schedule.trim());
  if (!match || Number(match[1]) < 1) return null;
  return Number(match[1]) * (match[2]!.startsWith('h') ? 3_600_000 : 60_000);
}

/**
 * The emulator keys an event or scheduled function as `<id>-<generation>` (the generation grows at
 * each reload of the functions' code); its 404 for an unknown key lists the keys it has.
 */
export function keyFromListing(listing: string, id: string): string | null {
  const keys = [...listing.matchAll(new RegExp(`(?:^|[\\s,:])(${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+))(?=$|[\\s,])`, 'g'))];
  if (keys.length === 0) return null;
  return keys.sort((a, b) => Number(b[2]) - Number(a[2]))[0]![1]!;
}

async function triggerKey(id: string): Promise<string> {
  const res = await fetch(`${FUNCTIONS_URL}/functions/projects/${PROJECT_ID}/triggers/list-of-keys`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  const key = keyFromListing(await res.text(), id);
  if (!key) throw new Error(`The Functions emulator lists no trigger for ${id} (a firebase-tools upgrade may have moved its background-function route)`);
  return key;
}

/**
 * Runs the scheduled function once in the Functions emulator, as Cloud Scheduler would, and
 * resolves when it ended: 200 (it ran), 500 (it threw), 204 (the emulator's background triggers are off).
 */
export async function runScheduled(name: string, region = 'us-central1'): Promise<number> {
  const key = await triggerKey(`${region}-${name}`);
  const res = await fetch(`${FUNCTIONS_URL}/functions/projects/${PROJECT_ID}/triggers/${key}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CloudScheduler-JobName': `firebase-schedule-${name}-${region}`, 'X-CloudScheduler-ScheduleTime': new Date().toISOString() },
    body: '{}',
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Calls each scheduled function on its schedule until stopped; a run never overlaps the same
 * function's previous one (Cloud Scheduler's maxInstances: 1 functions behave alike). Returns stop().
 */
export async function startLocalSchedules(log: (line: string) => void): Promise<{ functions: ScheduledFunction[]; stop: () => void }> {
  let functions: ScheduledFunction[];
  try {
    functions = await scheduledFunctions();
  } catch (error) {
    log(`Schedules: none run locally: ${(error as Error).message}`);
    return { functions: [], stop: () => undefined };
  }
  const timers: NodeJS.Timeout[] = [];
  for (const fn of functions) {
    const every = scheduleIntervalMs(fn.schedule);
    if (every === null) {
      log(`Schedules: ${fn.name} ('${fn.schedule}') is not run locally: only 'every N minutes' and 'every N hours' are understood`);
      continue;
    }
    let running = false;
    const tick = async () => {
      if (running) return;
      running = true;
      try {
        const status = await runScheduled(fn.name);
        if (status >= 500) log(`Schedules: ${fn.name} failed (${status}); see the Functions emulator's log`);
      } catch (error) {
        log(`Schedules: ${fn.name} could not be called: ${(error as Error).message}`);
      } finally {
        running = false;
      }
    };
    const timer = setInterval(() => void tick(), every);
    timer.unref();
    timers.push(timer);
  }
  return { functions, stop: () => timers.forEach(clearInterval) };
}
