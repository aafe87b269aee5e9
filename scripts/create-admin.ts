import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { getApps, initializeApp } from 'firebase-admin/app';
import { FieldValue, getFirestore, type Firestore } from 'firebase-admin/firestore';
import { canonicalAdminUsername } from '../contract/src/admin';
import { hashPassword } from '../functions/src/lib/passwords';

// Creates an administrator in a real project (production has no demo admin), or gives an existing
// one a new password, which also ends every token issued before (its tokenVersion is bumped):
//   npm run create-admin -- --project <project-id> <username>
// Uses application default credentials (gcloud auth application-default login).
// To remove an admin, delete its document in `admins`: its tokens stop working on their next use.

/** Stores the password's hash; merge + increment: a new admin starts at 1, an existing one moves past every token it holds. */
export async function saveAdmin(db: Firestore, username: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.collection('admins').doc(username).set({ username, role: 'admin', passwordHash, tokenVersion: FieldValue.increment(1) }, { merge: true });
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
  const password = await rl.question('Password (at least 12 characters): ');
  rl.close();
  if (password.length < 12) throw new Error('Choose a password of at least 12 characters.');
  await saveAdmin(getFirestore(getApps()[0] ?? initializeApp({ projectId })), username, password);
  console.log(`Admin ${username} saved in project ${projectId}; tokens issued before now no longer work.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
