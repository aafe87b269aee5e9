import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { ROOT } from './env';
import { waitFor } from './ports';

export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, from the repository root: its output shown, or captured (`capture`). */
export function run(command: string, args: string[], { env, capture = false }: { env?: NodeJS.ProcessEnv; capture?: boolean } = {}): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: env ?? process.env, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const out = { stdout: '', stderr: '' };
    child.stdout?.on('data', (d: Buffer) => (out.stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out.stderr += d.toString()));
    child.on('error', (error) => resolve({ code: 1, stdout: out.stdout, stderr: `${out.stderr}${error.message}` }));
    child.on('exit', (code) => resolve({ code: code ?? 1, ...out }));
  });
}

export interface WatchedProcess {
  child: ChildProcess;
  /** The last few KB of its output, for error messages. */
  tail(): string;
  exited(): boolean;
  /** SIGTERM, then SIGKILL after 20 s; resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts a command through scripts/lib/watchdog.ts, so it dies with the launcher even when the
 * launcher is killed with SIGKILL. Output goes to `logFile` (and the terminal when `echo`).
 */
export function startWatched(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; logFile?: string | null; echo?: boolean } = {}): WatchedProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', `${ROOT}scripts/lib/watchdog.ts`, command, ...args], {
    cwd: ROOT,
    detached: true, // survives a kill -9 of our process group long enough to stop its own group
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output.push(text);
    if (output.length > 400) output.shift();
    if (options.echo) process.stdout.write(text);
    if (options.logFile) writeFileSync(options.logFile, text, { flag: 'a' });
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exited = false;
  child.once('exit', () => (exited = true));
  return {
    child,
    tail: () => output.join('').slice(-4000),
    exited: () => exited,
    async stop() {
      if (exited) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await done;
      clearTimeout(forced);
    },
  };
}

/**
 * Starts a server with startWatched and waits until `ready()` says it serves; if it exits or times
 * out first, it is stopped and the error carries the end of its output.
 */
export async function startServing(what: string, command: string, args: string[], options: Parameters<typeof startWatched>[2], ready: (p: WatchedProcess) => Promise<boolean>, timeoutMs: number): Promise<WatchedProcess> {
  const p = startWatched(command, args, options);
  try {
    await waitFor(async () => {
      if (p.exited()) throw new Error('exited');
      return ready(p);
    }, what, timeoutMs);
  } catch (error) {
    await p.stop();
    throw new Error(`${what} did not start: ${p.exited() ? p.tail() : error}`, { cause: error });
  }
  return p;
}
