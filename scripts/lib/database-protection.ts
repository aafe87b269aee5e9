import { cliError, type FirebaseCli } from './deploy-checks';

// The first stage of a release: the Firestore database is protected before anything else ships
// (docs/deploying.md, "Protecting the data"):
// - point-in-time recovery: Firestore keeps every version of every document for 7 days, readable
//   and restorable to any minute (a bad migration, a bug that overwrote orders, an admin's mistake);
// - delete protection: the database cannot be deleted until someone turns it off on purpose;
// - a daily backup schedule, each backup kept 14 days: a copy older than PITR's window, restorable
//   into a new database even if the live one is damaged beyond 7 days' notice.
// Each is idempotent: the update sets what is already set, and the schedule is created only when the
// database has no daily one (Firestore allows one daily and one weekly per database), or its
// retention is corrected.

export const BACKUP_RETENTION = '14d';
const BACKUP_RETENTION_SECONDS = 14 * 24 * 3600;
const DATABASE = '(default)';

/** The firebase CLI arguments of each protection (run with the project appended). */
export const PROTECT_DATABASE = ['firestore:databases:update', DATABASE, '--point-in-time-recovery', 'ENABLED', '--delete-protection', 'ENABLED'];
export const CREATE_DAILY_BACKUP = ['firestore:backups:schedules:create', '--database', DATABASE, '--recurrence', 'DAILY', '--retention', BACKUP_RETENTION];
export const LIST_BACKUP_SCHEDULES = ['firestore:backups:schedules:list', '--database', DATABASE];

/** A backup schedule as `firestore:backups:schedules:list --json` returns it (Firestore Admin API BackupSchedule). */
export interface BackupSchedule {
  name: string;
  /** A Duration: '1209600s'. */
  retention?: string;
  dailyRecurrence?: object;
  weeklyRecurrence?: { day?: string };
}

/** The database's protection as `firestore:databases:get --json` shows it. */
export interface DatabaseState {
  pointInTimeRecoveryEnablement?: string;
  deleteProtectionState?: string;
}

/** One line for the checks: what is on, and what the release will turn on. */
export function describeProtection(db: DatabaseState): string {
  const pitr = db.pointInTimeRecoveryEnablement === 'POINT_IN_TIME_RECOVERY_ENABLED';
  const guard = db.deleteProtectionState === 'DELETE_PROTECTION_ENABLED';
  const state = `point-in-time recovery ${pitr ? 'on' : 'off'}, delete protection ${guard ? 'on' : 'off'}`;
  return pitr && guard ? state : `${state} (the release turns ${pitr ? 'delete protection' : guard ? 'point-in-time recovery' : 'both'} on)`;
}

export interface ProtectionDeps {
  projectId: string;
  cli: FirebaseCli;
  /** Runs a change with its output shown; throws when it fails. */
  run: (label: string, args: string[]) => Promise<void>;
  log: (line: string) => void;
}

const seconds = (duration: string | undefined) => Number(/^(\d+)s$/.exec(duration ?? '')?.[1] ?? NaN);

/** Turns on PITR and delete protection, then makes sure one daily backup schedule keeps 14 days. Throws on a failure. */
export async function protectDatabase({ projectId, cli, run, log }: ProtectionDeps): Promise<void> {
  const project = ['--project', projectId];
  await run('Turn on point-in-time recovery and delete protection', [...PROTECT_DATABASE, ...project]);
  const listed = await cli([...LIST_BACKUP_SCHEDULES, ...project, '--json']);
  if (listed.code !== 0) throw new Error(`Listing the backup schedules failed: ${cliError(listed)}`);
  let schedules: BackupSchedule[];
  try {
    schedules = (JSON.parse(listed.stdout) as { result?: BackupSchedule[] }).result ?? [];
  } catch {
    throw new Error(`Listing the backup schedules gave no JSON: ${listed.stdout.slice(0, 200)}`);
  }
  const daily = schedules.find((s) => s.dailyRecurrence);
  if (!daily) {
    await run(`Create a daily backup schedule (each backup kept ${BACKUP_RETENTION})`, [...CREATE_DAILY_BACKUP, ...project]);
    return;
  }
  if (seconds(daily.retention) !== BACKUP_RETENTION_SECONDS) {
    await run(`Keep the daily backups ${BACKUP_RETENTION} (the schedule kept ${daily.retention ?? 'no retention'})`, ['firestore:backups:schedules:update', daily.name, '--retention', BACKUP_RETENTION, ...project]);
    return;
  }
  log(`  a daily backup schedule exists, each backup kept ${BACKUP_RETENTION} (${daily.name})`);
}
