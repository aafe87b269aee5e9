import { initializeApp } from 'firebase-admin/app';
import { cliArgs, EMULATOR_ENV, PROJECT_ID as EMULATOR_PROJECT } from './lib/env';
import { describeUpgrade, migratePlaces } from './lib/migrate-places';

// Stores a shop's fulfilment settings from before issue 36 with country and region codes
// (scripts/lib/migrate-places.ts says what it does):
//   npm run migrate-places -- --project <project-id> [--dry-run]
//   npm run migrate-places -- --emulators [--dry-run]     (the local shop, while npm start runs)
// A real project needs application default credentials: gcloud auth application-default login.

const USAGE = 'Usage: npm run migrate-places -- (--project <project-id> | --emulators) [--dry-run]';

async function main() {
  const options = { project: { type: 'string', short: 'P' }, emulators: { type: 'boolean', default: false }, 'dry-run': { type: 'boolean', default: false } } as const;
  const { values } = cliArgs(process.argv.slice(2), options, USAGE);
  if (values.emulators === Boolean(values.project)) throw new Error(USAGE);
  const projectId = values.emulators ? EMULATOR_PROJECT : values.project!;
  if (values.emulators) {
    Object.assign(process.env, EMULATOR_ENV);
  } else {
    const leaked = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'].filter((v) => process.env[v]);
    if (leaked.length > 0) throw new Error(`${leaked.join(', ')} is set: unset it to migrate ${projectId}, or use --emulators.`);
    process.env.GCLOUD_PROJECT = projectId;
    process.env.METADATA_SERVER_DETECTION ??= 'none';
  }
  initializeApp({ projectId });
  const report = await migratePlaces({ dryRun: values['dry-run'] });
  for (const line of describeUpgrade(report)) console.log(line);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
