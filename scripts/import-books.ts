import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { IMPORT_CHUNK_ROWS, ImportFileError, MAX_IMPORT_COVER_URLS, recordsFromCsv, recordsFromNdjson, type ImportRowError } from '@bookstore/contract';
import { initializeApp } from 'firebase-admin/app';
import { cliArgs, EMULATOR_ENV, PROJECT_ID as EMULATOR_PROJECT } from './lib/env';

// Imports a catalogue file (CSV with a header row, or JSON lines) straight into Firestore with the
// same validation and upsert as POST /api/books/import (functions/src/books/import.*):
//   npm run import-books -- --project <project-id> [--dry-run] <file.csv|file.ndjson>
//   npm run import-books -- --emulators [--dry-run] <file>     (the local shop, while npm start runs)
// A real project needs application default credentials: gcloud auth application-default login.

// Whoever runs this holds the project's credentials, an owner's power: the audit log names the command.
const CLI_ACTOR = { username: 'npm-run-import-books', role: 'owner' } as const;

const USAGE = 'Usage: npm run import-books -- (--project <project-id> | --emulators) [--dry-run] <file.csv|file.ndjson>';

function parseArgs(argv: string[]) {
  const options = { project: { type: 'string', short: 'P' }, emulators: { type: 'boolean', default: false }, 'dry-run': { type: 'boolean', default: false } } as const;
  const { values, positionals: files } = cliArgs(argv, options, USAGE, true);
  if (files.length !== 1 || values.emulators === Boolean(values.project)) throw new Error(USAGE);
  return { projectId: values.emulators ? EMULATOR_PROJECT : values.project!, emulators: values.emulators, dryRun: values['dry-run'], file: files[0]! };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.emulators) {
    Object.assign(process.env, EMULATOR_ENV);
  } else {
    const leaked = ['FIRESTORE_EMULATOR_HOST', 'FIREBASE_AUTH_EMULATOR_HOST'].filter((v) => process.env[v]);
    if (leaked.length > 0) throw new Error(`${leaked.join(', ')} is set: unset it to import into ${args.projectId}, or use --emulators.`);
    process.env.GCLOUD_PROJECT = args.projectId;
    process.env.METADATA_SERVER_DETECTION ??= 'none'; // a laptop is not a Google Cloud VM
  }
  initializeApp({ projectId: args.projectId }); // before the repo's first db() call, which reuses it
  const { validateRecords } = await import('../functions/src/books/import.rows');
  const { commitImport, planImport } = await import('../functions/src/books/import.repo');
  const { resolveCoverUrls } = await import('../functions/src/books/import.covers');
  const { COVER_FETCH } = await import('../functions/src/books/cover-fetch');
  // Cover URLs under the function's own rules (https, public addresses); --emulators also allows
  // http and loopback, as the Functions emulator does.
  const policy = { ...COVER_FETCH, local: args.emulators };

  const text = readFileSync(args.file, 'utf8');
  const records = /\.(ndjson|jsonl)$/i.test(args.file) ? recordsFromNdjson(text) : recordsFromCsv(text);
  const { rows, errors } = validateRecords(records);
  const totals = { created: 0, updated: 0, unchanged: 0 };
  const rowErrors: ImportRowError[] = [...errors];
  const started = performance.now();
  console.log(`${args.dryRun ? 'Checking' : 'Importing'} ${records.length} rows of ${basename(args.file)} ${args.emulators ? 'into the local emulators' : `into project ${args.projectId}`}...`);
  // Chunks of at most IMPORT_CHUNK_ROWS rows and MAX_IMPORT_COVER_URLS distinct cover URLs, as the import page sends.
  const chunks: (typeof rows)[] = [];
  let chunk: typeof rows = [];
  let urls = new Set<string>();
  for (const row of rows) {
    const url = row.input.coverUrl;
    if (chunk.length >= IMPORT_CHUNK_ROWS || (url && !urls.has(url) && urls.size >= MAX_IMPORT_COVER_URLS)) {
      chunks.push(chunk);
      chunk = [];
      urls = new Set();
    }
    if (url) urls.add(url);
    chunk.push(row);
  }
  if (chunk.length > 0) chunks.push(chunk);
  let done = 0;
  for (const part of chunks) {
    const covers = await resolveCoverUrls(part, { store: !args.dryRun, policy });
    const plan = await planImport(covers.rows);
    if (!args.dryRun) await commitImport(plan.writes, CLI_ACTOR);
    totals.created += plan.created;
    totals.updated += plan.updated;
    totals.unchanged += plan.unchanged;
    rowErrors.push(...covers.errors, ...plan.errors);
    done += part.length;
    process.stdout.write(`\r  ${done} of ${rows.length} valid rows`);
  }
  if (rows.length > 0) process.stdout.write('\n');
  rowErrors.sort((a, b) => a.row - b.row);
  for (const e of rowErrors.slice(0, 50)) console.log(`  row ${e.row}, ${e.field}: ${e.message}`);
  if (rowErrors.length > 50) console.log(`  ...and ${rowErrors.length - 50} more`);
  const verb = args.dryRun ? 'would be' : 'were';
  console.log(`${totals.created} ${verb} created, ${totals.updated} ${verb} updated, ${totals.unchanged} unchanged, ${rowErrors.length} rows with errors (${Math.round(performance.now() - started)} ms).`);
  return rowErrors.length > 0 ? 2 : 0; // 2: imported, but some rows were skipped
}

main()
  .then((code) => process.exit(code)) // the Firestore client keeps the process alive otherwise
  .catch((error) => {
    console.error(error instanceof ImportFileError ? `The file was not imported: ${error.message}` : error instanceof Error ? error.message : error);
    process.exit(1);
  });
