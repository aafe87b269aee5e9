import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';

/**
 * One emulator service the launcher runs (the firebase CLI, Firestore, Storage). Each is started
 * by a `start*(ctx)` function with its saved state, saved every few seconds, stopped on exit.
 */
export interface EmulatorBackend {
  /** What runs and where it came from, printed at start-up. */
  label: string;
  /** Writes its state under ctx.stateDir (nothing for a throwaway suite). */
  save(): Promise<void>;
  stop(): Promise<void>;
}

export interface BackendContext {
  /** Where data is imported from and saved to; null for a throwaway suite. */
  stateDir: string | null;
  /** Where the emulators' output goes (null: kept in memory for error messages, or echoed when verbose). */
  logFile: string | null;
  verbose: boolean;
}

/**
 * Writes a new copy of the folder `dir` through `write(tmp)` and swaps it in, so that a kill at any
 * moment leaves one whole copy: `dir`, or `dir.old` between the two renames (`savedCopy` finds it).
 */
export async function replaceDir(dir: string, write: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  await write(tmp);
  rmSync(`${dir}.old`, { recursive: true, force: true });
  if (existsSync(dir)) renameSync(dir, `${dir}.old`);
  renameSync(tmp, dir);
  rmSync(`${dir}.old`, { recursive: true, force: true });
}

/** The last whole copy `replaceDir` left of `dir`, if any. */
export const savedCopy = (dir: string): string | null => [dir, `${dir}.old`].find((d) => existsSync(d)) ?? null;
