import { createRequire } from 'node:module';
import type { ApiIndex } from './index-wait';

// The Firestore Admin API's index list, read with the firebase CLI's own login.
// `firebase firestore:indexes` cannot be used for the wait: its JSON output is the deploy spec
// (no `state`), and its --pretty text drops the query scope. So this signs in exactly as a CLI
// command does (the account of `firebase login` for this directory, else application default
// credentials) and makes the same GET the command makes, whose answer carries each index's state.
// These are internal modules of firebase-tools, pinned exactly in package.json (15.34.2), as the
// Storage emulator replacement already does; docs/decisions/017-deploy-order.md says what to check
// when upgrading it.

const require = createRequire(import.meta.url);

interface CliOptions {
  project: string;
  projectId: string;
  cwd: string;
  projectRoot: string;
  user?: unknown;
  tokens?: unknown;
}

let signedIn: Promise<unknown> | undefined;

/** Lists every composite index of the project's (default) database, with its state. Throws the CLI's own error when not logged in. */
export async function listIndexes(projectId: string, root: string): Promise<ApiIndex[]> {
  const auth = require('firebase-tools/lib/auth') as {
    selectAccount: (account: string | undefined, projectRoot: string) => unknown;
    setActiveAccount: (options: CliOptions, account: unknown) => void;
  };
  const { requireAuth } = require('firebase-tools/lib/requireAuth') as { requireAuth: (options: CliOptions) => Promise<unknown> };
  const { FirestoreApi } = require('firebase-tools/lib/firestore/api') as {
    FirestoreApi: new () => { listIndexes: (project: string, databaseId: string) => Promise<ApiIndex[]> };
  };
  if (!signedIn) {
    const options: CliOptions = { project: projectId, projectId, cwd: root, projectRoot: root };
    const account = auth.selectAccount(undefined, root);
    if (account) auth.setActiveAccount(options, account);
    signedIn = requireAuth(options).catch((error: unknown) => {
      signedIn = undefined; // a later poll may try again
      throw error;
    });
  }
  await signedIn;
  return new FirestoreApi().listIndexes(projectId, '(default)');
}
