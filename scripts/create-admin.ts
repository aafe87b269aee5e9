import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { getApps, initializeApp } from 'firebase-admin/app';
import { FieldValue, getFirestore, type Firestore } from 'firebase-admin/firestore';
import { canonicalAdminUsername } from '../contract/src/admin';
import { StaffPasswordSchema } from '../contract/src/staff';
import { appendAudit, openAudit } from '../functions/src/admin/audit.repo';
import { hashPassword } from '../functions/src/lib/passwords';

// Creates an owner in a real project (production has no demo owner), or gives an existing staff
// member a new password (their role is kept), which also ends every token issued before (their
// tokenVersion is bumped). Other staff are then created in the dashboard's Staff page. The
// password must pass the same rule as the API's (12+ characters, not common: contract/src/passwords.ts).
//   npm run create-admin -- --project <project-id> <username>
// Uses application default credentials (gcloud auth application-default login).
// The change and its audit event (actor `npm-run-create-admin`) are written in one transaction.

const CLI_ACTOR = 'npm-run-create-admin';

/** Checks the password rule, then stores its hash: a new owner starts at token version 1, an existing person moves past every token they hold. */
export async function saveAdmin(db: Firestore, username: string, password: string): Promise<void> {
  const checked = StaffPasswordSchema.safeParse(password);
  if (!checked.success) throw new Error(checked.error.issues[0]!.message);
  const passwordHash = await hashPassword(password);
  const ref = db.collection('admins').doc(username);
  await db.runTransaction(async (tx) => {
    const exists = (await tx.get(ref)).exists;
    const log = await openAudit(tx, db);
    // A new password also voids the person's device cookies (deviceEpoch, issue 36).
    if (exists) tx.update(ref, { passwordHash, tokenVersion: FieldValue.increment(1), deviceEpoch: FieldValue.increment(1) });
    else tx.create(ref, { username, displayName: username, role: 'owner', disabled: false, passwordHash, tokenVersion: 1 });
    appendAudit(log, { username: CLI_ACTOR, role: 'owner' }, {
      action: exists ? 'staff.update' : 'staff.create', target: `admins/${username}`,
      changes: exists ? { password: { before: '(set)', after: '(changed)' } } : { role: { before: null, after: 'owner' } },
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  const projectAt = args.indexOf('--project');
  const projectId = projectAt >= 0 ? args[projectAt + 1] : undefined;
  const typed = args.filter((_, i) => i !== projectAt && i !== projectAt + 1)[0];
  const username = typed ? canonicalAdminUsername(typed) : null; // the login uses the same form
  if (!projectId || !username) {
    throw new Error('Usage: npm run create-admin -- --project <project-id> <username> (1-64 of a-z 0-9 . _ -)');
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const password = await rl.question('Password (at least 12 characters, not a common one): ');
  rl.close();
  await saveAdmin(getFirestore(getApps()[0] ?? initializeApp({ projectId })), username, password);
  console.log(`Owner ${username} saved in project ${projectId}; tokens issued before now no longer work.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
