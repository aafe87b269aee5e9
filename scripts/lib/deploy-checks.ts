import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// What `npm run deploy` checks before it ships anything. The firebase CLI is injected, so the
// refusals are unit-tested with the CLI's answers simulated (deploy-checks.test.ts); on a real
// machine it is node_modules/firebase-tools, logged in with `firebase login`.

export interface CliAnswer {
  code: number;
  stdout: string;
  stderr: string;
}
export type FirebaseCli = (args: string[]) => Promise<CliAnswer>;

export interface Check {
  name: string;
  ok: boolean;
  /** What was found. */
  detail: string;
  /** The exact command or step that fixes a failed check. */
  fix?: string;
}

export const SECRET = 'ADMIN_JWT_SECRET';
export const MIN_SECRET_BYTES = 32;
export const WEB_ENV_FILE = 'web/.env.production.local';
/** Vite's production mode reads these, later files winning. */
const WEB_ENV_FILES = ['web/.env', 'web/.env.local', 'web/.env.production', WEB_ENV_FILE];

/** Google Cloud project ids: 6-30 characters, lowercase letters, digits and hyphens. */
export function isProjectId(value: string): boolean {
  return /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(value);
}

/** KEY=VALUE lines as Vite's dotenv reads them (comments, blank lines, optional quotes). */
export function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    env[match[1]!] = value;
  }
  return env;
}

export function readWebEnv(root: string): { env: Record<string, string>; found: boolean } {
  const env: Record<string, string> = {};
  for (const file of WEB_ENV_FILES) {
    const path = join(root, file);
    if (existsSync(path)) Object.assign(env, parseEnv(readFileSync(path, 'utf8')));
  }
  return { env, found: existsSync(join(root, WEB_ENV_FILE)) };
}

const CONSOLE = (projectId: string) => `https://console.firebase.google.com/project/${projectId}`;

/** The web app's Firebase config: present, not the demo one, for this project, no emulator URL. */
export function checkWebConfig(root: string, projectId?: string): Check {
  const name = 'Web app config (web/.env.production.local)';
  const fill = `Copy web/.env.production.example to ${WEB_ENV_FILE} and fill it in from ${CONSOLE(projectId ?? '<project-id>')}/settings/general (Your apps > Web app > SDK setup and configuration > Config); or run: npx firebase apps:sdkconfig web --project ${projectId ?? '<project-id>'}`;
  const { env, found } = readWebEnv(root);
  if (!found) return { name, ok: false, detail: `${WEB_ENV_FILE} does not exist`, fix: fill };
  const problems: string[] = [];
  const key = env.VITE_FIREBASE_API_KEY ?? '';
  if (!key) problems.push('VITE_FIREBASE_API_KEY is empty');
  else if (/^demo/i.test(key)) problems.push(`VITE_FIREBASE_API_KEY is the demo key "${key}"`);
  const project = env.VITE_FIREBASE_PROJECT_ID ?? '';
  if (!project || project === 'your-project') problems.push('VITE_FIREBASE_PROJECT_ID is not filled in');
  else if (project.startsWith('demo-')) problems.push(`VITE_FIREBASE_PROJECT_ID is the demo project "${project}"`);
  else if (projectId && project !== projectId) problems.push(`VITE_FIREBASE_PROJECT_ID is "${project}" but you deploy to "${projectId}"`);
  const domain = env.VITE_FIREBASE_AUTH_DOMAIN ?? '';
  if (!domain || domain.startsWith('your-project') || domain.startsWith('demo-')) problems.push('VITE_FIREBASE_AUTH_DOMAIN is not filled in');
  if (!env.VITE_FIREBASE_APP_ID) problems.push('VITE_FIREBASE_APP_ID is empty');
  if (env.VITE_AUTH_EMULATOR_URL) problems.push('VITE_AUTH_EMULATOR_URL is set: a production build must not talk to the Auth emulator');
  if (problems.length > 0) return { name, ok: false, detail: problems.join('; '), fix: fill + (env.VITE_AUTH_EMULATOR_URL ? '; and delete the VITE_AUTH_EMULATOR_URL line' : '') };
  return { name, ok: true, detail: `project ${project}, app ${env.VITE_FIREBASE_APP_ID}` };
}

const NOT_FOUND = /not[ _]?found|404|does not exist/i;

/** ADMIN_JWT_SECRET exists in Secret Manager with an enabled version of at least 32 bytes. */
export async function checkSecret(cli: FirebaseCli, projectId: string): Promise<Check> {
  const name = `Secret ${SECRET} (Secret Manager)`;
  const fix = `openssl rand -hex 32 | npx firebase functions:secrets:set ${SECRET} --project ${projectId} --data-file=-`;
  const meta = await cli(['functions:secrets:get', SECRET, '--project', projectId, '--json']);
  if (meta.code !== 0) {
    const output = `${meta.stdout}\n${meta.stderr}`;
    if (NOT_FOUND.test(output)) return { name, ok: false, detail: 'not set', fix };
    return unchecked(name, meta, `npx firebase functions:secrets:get ${SECRET} --project ${projectId}`);
  }
  if (!enabledVersion(meta.stdout)) return { name, ok: false, detail: 'no enabled version', fix };
  const value = await cli(['functions:secrets:access', SECRET, '--project', projectId]);
  if (value.code !== 0) return { name, ok: false, detail: `its value could not be read: ${cliError(value)}`, fix };
  const bytes = Buffer.byteLength(value.stdout.replace(/\r?\n$/, ''));
  if (bytes < MIN_SECRET_BYTES) return { name, ok: false, detail: `only ${bytes} bytes long (at least ${MIN_SECRET_BYTES} needed)`, fix };
  return { name, ok: true, detail: `set, ${bytes} bytes (value not shown)` };
}

/** Firestore: the (default) database exists. */
export async function checkFirestore(cli: FirebaseCli, projectId: string): Promise<Check> {
  const name = 'Firestore (default) database';
  const answer = await cli(['firestore:databases:get', '(default)', '--project', projectId]);
  if (answer.code === 0) return { name, ok: true, detail: 'exists' };
  const output = `${answer.stdout}\n${answer.stderr}`;
  if (!NOT_FOUND.test(output)) return unchecked(name, answer, `npx firebase firestore:databases:get "(default)" --project ${projectId}`);
  return {
    name,
    ok: false,
    detail: 'not created',
    fix: `Create it: ${CONSOLE(projectId)}/firestore (Create database, production mode), or: npx firebase firestore:databases:create "(default)" --location <region, e.g. nam5> --project ${projectId}`,
  };
}

/**
 * Storage: its default bucket is set up. The firebase CLI has no query for it, but a Storage
 * deploy's dry run resolves the default bucket first and fails clearly when there is none.
 */
export async function checkStorage(cli: FirebaseCli, projectId: string, config: string): Promise<Check> {
  const name = 'Cloud Storage default bucket';
  const answer = await cli(['deploy', '--only', 'storage', '--dry-run', '--config', config, '--project', projectId]);
  if (answer.code === 0) return { name, ok: true, detail: 'set up' };
  const output = `${answer.stdout}\n${answer.stderr}`;
  if (!/has not been set up/i.test(output)) return unchecked(name, answer, `npx firebase deploy --only storage --dry-run --project ${projectId}`);
  return {
    name,
    ok: false,
    detail: 'not set up',
    fix: `Set it up: ${CONSOLE(projectId)}/storage (Get started; it needs the Blaze plan), then run the deploy again`,
  };
}

/** `--json` answers `{ status, result: { secrets: [{ versionId, state }] } }`. */
function enabledVersion(stdout: string): boolean {
  try {
    const answer = JSON.parse(stdout) as { result?: { secrets?: { state?: string }[] } };
    return (answer.result?.secrets ?? []).some((v) => v.state === 'ENABLED');
  } catch {
    return /\bENABLED\b/.test(stdout);
  }
}

/** The CLI's error in one line: `--json`'s `error` field, else the first line that is not a warning. */
export function cliError(answer: CliAnswer): string {
  try {
    const json = JSON.parse(answer.stdout) as { error?: unknown };
    if (typeof json.error === 'string') return json.error;
  } catch {
    /* not JSON */
  }
  const line = `${answer.stderr}\n${answer.stdout}`
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('⚠') && !/nodedir/.test(l));
  return (line ?? 'no output').replace(/^Error:\s*/, '');
}

/** A check the CLI could not answer (not logged in, no permission, offline). */
function unchecked(name: string, answer: CliAnswer, retry: string): Check {
  const error = cliError(answer);
  const fix = /firebase login|authenticate|credentials/i.test(error) ? `npx firebase login, then run the deploy again` : `check your network and permissions, then: ${retry}`;
  return { name, ok: false, detail: `could not be checked: ${error}`, fix };
}
