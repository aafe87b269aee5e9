import { pathToFileURL } from 'node:url';
import { initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { getStorage } from 'firebase-admin/storage';
import { cliArgs, EMULATOR_ENV, PROJECT_ID as EMULATOR_PROJECT } from './lib/env';

// Walks the audit log's hash chain (issue 36; functions/src/admin/audit-chain.ts) and says whether
// every event is still the one written: an event edited, deleted or inserted with admin credentials
// (the Firebase console, firebase-admin, the REST API) breaks it, and so does an event written
// without its place in the chain (no `seq`) after the chain began (issue 55). A rewrite of the whole chain after
// some event would pass, unless you give an anchor seen earlier outside Firestore: the head this
// command printed last time, or an `audit chain head` line of the api function's log.
//   npm run audit:verify -- --project <project-id> [--anchor <seq>:<hash>]
//   npm run audit:verify -- --emulators [--anchor <seq>:<hash>]      (the local shop, while npm start runs)
// --stored-anchors checks every daily anchor the `anchorAudit` function stored in Storage
// (audit-anchors/<day>.json in the default bucket, or --bucket <name>) as well (issue 55).
// Exit code 0 when the chain holds, 1 when it does not (each problem is printed), 2 on bad usage.

const USAGE = 'Usage: npm run audit:verify -- (--project <project-id> | --emulators) [--anchor <seq>:<hash>] [--stored-anchors [--bucket <name>]]';

function parseAnchor(text: string | undefined) {
  if (!text) return undefined;
  const match = /^(\d+):([0-9a-f]{64})$/.exec(text);
  if (!match) throw new Error(`--anchor must be <seq>:<64 hex digits>. ${USAGE}`);
  return { seq: Number(match[1]), hash: match[2]! };
}

async function main(): Promise<number> {
  const options = {
    project: { type: 'string', short: 'P' }, emulators: { type: 'boolean', default: false }, anchor: { type: 'string' },
    'stored-anchors': { type: 'boolean', default: false }, bucket: { type: 'string' },
  } as const;
  const { values } = cliArgs(process.argv.slice(2), options, USAGE);
  if (values.emulators === Boolean(values.project)) throw new Error(USAGE);
  const anchor = parseAnchor(values.anchor);
  const projectId = values.emulators ? EMULATOR_PROJECT : values.project!;
  if (values.emulators) Object.assign(process.env, EMULATOR_ENV);
  else {
    process.env.GCLOUD_PROJECT = projectId;
    process.env.METADATA_SERVER_DETECTION ??= 'none'; // a laptop is not a Google Cloud VM
  }
  const app = initializeApp({ projectId });
  const firestore = getFirestore(app);
  const { verifyAuditLog } = await import('../functions/src/admin/audit.repo');
  const anchors = anchor ? [anchor] : [];
  const malformed: string[] = [];
  if (values['stored-anchors']) {
    const { storedAnchors } = await import('../functions/src/admin/audit-anchor');
    const stored = await storedAnchors(getStorage(app).bucket(values.bucket ?? `${projectId}.appspot.com`));
    anchors.push(...stored.anchors);
    malformed.push(...stored.malformed.map((name) => `${name}: not an anchor (seq and a 64-hex hash)`));
  }
  const report = await verifyAuditLog(firestore, anchors);
  report.problems.push(...malformed);
  report.ok &&= malformed.length === 0;
  console.log(`Audit chain of ${values.emulators ? 'the local emulators' : `project ${projectId}`}: ${report.checked} chained events walked` +
    (report.unchained > 0 ? `, ${report.unchained} from before the chain (not checkable)` : '') +
    (values['stored-anchors'] ? `, ${anchors.length - (anchor ? 1 : 0)} stored anchors checked` : '') + '.');
  console.log(`Head: ${report.head.seq}:${report.head.hash}  (keep it: --anchor ${report.head.seq}:${report.head.hash} next time)`);
  if (report.ok) {
    console.log('The chain holds: no event was edited, removed or inserted.');
    return 0;
  }
  console.error(`The chain is broken (${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}):`);
  for (const problem of report.problems) console.error(`  - ${problem}`);
  return 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(2);
    },
  );
}
