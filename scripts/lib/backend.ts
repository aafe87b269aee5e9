/** A service the launcher runs itself (Firestore, Storage): started with its saved state, saved every few seconds. */
export interface EmulatorBackend {
  /** What runs and where it came from, printed at start-up. */
  label: string;
  save(): Promise<void>;
  stop(): Promise<void>;
}
