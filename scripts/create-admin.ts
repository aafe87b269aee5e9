import { createInterface } from 'node:readline/promises';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import { hashPassword } from '../functions/src/lib/passwords';

// Creates or replaces an administrator in a real project (production has no demo admin):
//   npm run create-admin -- --project <project-id> <username>
// Uses application default credentials (gcloud auth application-default login).

async function main() {
  const args = process.argv.slice(2);
  const projectAt = args.indexOf('--project');
  const projectId = projectAt >= 0 ? args[projectAt + 1] : undefined;
  const username = args.filter((_, i) => i !== projectAt && i !== projectAt + 1)[0]?.toLowerCase();
  if (!projectId || !username || !/^[a-z0-9_.-]{3,100}$/.test(username)) {
    throw new Error('Usage: npm run create-admin -- --project <project-id> <username>');
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const password = await rl.question('Password (at least 12 characters): ');
  rl.close();
  if (password.length < 12) throw new Error('Choose a password of at least 12 characters.');
  const db = getFirestore(getApps()[0] ?? initializeApp({ projectId }));
  await db.collection('admins').doc(username).set({ username, role: 'admin', passwordHash: await hashPassword(password) });
  console.log(`Admin ${username} saved in project ${projectId}.`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
