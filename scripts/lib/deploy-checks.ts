import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MAIL_COLLECTION } from '../../functions/src/orders/mail';

// What `npm run deploy` checks before it ships anything. The firebase CLI is injected, so the
// refusals are unit-tested with the CLI's answers simulated (deploy.test.ts); on a real
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

/** Issue 35: the `api` function declares both; a deploy needs every declared secret to exist. */
export const STRIPE_SECRETS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const;
const STRIPE_SHAPES: Record<(typeof STRIPE_SECRETS)[number], RegExp> = { STRIPE_SECRET_KEY: /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, STRIPE_WEBHOOK_SECRET: /^whsec_[A-Za-z0-9+/=]{8,}$/ };

/**
 * Card payments (issue 35): both Stripe secrets exist (firebase deploy refuses a function whose
 * declared secret does not) and are either both Stripe values (cards on) or both `off` (cash only).
 * A half or malformed pair would stop `api` at start (payments/stripe-client.ts): refused here first.
 */
export async function checkStripeSecrets(cli: FirebaseCli, projectId: string): Promise<Check> {
  const name = 'Secrets STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET (Secret Manager, card payments)';
  const set = (secret: string, what: string) => `printf '%s' '${what}' | npx firebase functions:secrets:set ${secret} --project ${projectId} --data-file=-`;
  const fix = `Cards off: ${set('STRIPE_SECRET_KEY', 'off')} and ${set('STRIPE_WEBHOOK_SECRET', 'off')}; cards on: the secret key from the Stripe dashboard (Developers > API keys) and the signing secret of the endpoint https://<your-site>/api/stripe/webhook (Developers > Webhooks), set the same way (docs/deploying.md)`;
  const values: string[] = [];
  for (const secret of STRIPE_SECRETS) {
    const value = await cli(['functions:secrets:access', secret, '--project', projectId]);
    if (value.code !== 0) {
      if (NOT_FOUND.test(`${value.stdout}\n${value.stderr}`)) return { name, ok: false, detail: `${secret} is not set`, fix };
      return unchecked(name, value, `npx firebase functions:secrets:get ${secret} --project ${projectId}`);
    }
    values.push(value.stdout.replace(/\r?\n$/, '').trim());
  }
  const off = values.map((v) => v.toLowerCase() === 'off');
  if (off.every(Boolean)) return { name, ok: true, detail: 'both off: checkout offers cash only (values not shown)' };
  if (off.some(Boolean)) return { name, ok: false, detail: 'one is off and the other is not: card payments need both', fix };
  const bad = STRIPE_SECRETS.filter((secret, i) => !STRIPE_SHAPES[secret].test(values[i]!));
  if (bad.length) return { name, ok: false, detail: `${bad.join(' and ')} ${bad.length > 1 ? 'are' : 'is'} not in Stripe's shape (sk_live_/sk_test_/rk_..., whsec_...)`, fix };
  const mode = values[0]!.includes('_live_') ? 'live' : 'test';
  return { name, ok: true, detail: `card payments on, Stripe ${mode} mode (values not shown)` };
}

/** Firestore: the (default) database exists; its location (for the mail extension's check) and its protection settings are returned. */
export async function checkFirestore(cli: FirebaseCli, projectId: string): Promise<Check & { location?: string; database?: Record<string, unknown> }> {
  const name = 'Firestore (default) database';
  const answer = await cli(['firestore:databases:get', '(default)', '--project', projectId, '--json']);
  if (answer.code === 0) {
    const database = jsonResult<{ locationId?: string } & Record<string, unknown>>(answer.stdout);
    const location = database?.locationId;
    return { name, ok: true, detail: location ? `exists (${location})` : 'exists', location, database };
  }
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

/** `--json` answers `{ status: 'success', result }`. */
function jsonResult<T>(stdout: string): T | undefined {
  try {
    return (JSON.parse(stdout) as { result?: T }).result;
  } catch {
    return undefined;
  }
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

// The Trigger Email extension (firebase/firestore-send-email) sends the documents the function
// queues in `mail`. `firebase deploy --only extensions` reads its instance from firebase.json's
// `extensions` and its params from extensions/<instance>.env, .env.<alias>, .env.<project-id>
// (later files win). These checks read them the same way, with firebase-tools' own parser.

export const MAIL_EXTENSION = 'firestore-send-email';
const PINNED_REF = /^firebase\/firestore-send-email@\d+\.\d+\.\d+$/;
/** extension.yaml's own validation of SMTP_CONNECTION_URI (0.2.8). */
const SMTP_URI = /^(smtp[s]*:\/\/(.*?(:[^:@]*)?@)?[^:@]+:[0-9]+(\?[^ ]*)?)|^$/;
const SECRET_VERSION = /^projects\/([^/]+)\/secrets\/([^/]+)\/versions\/([^/]+)$/;
const EXAMPLE_DOMAIN = /@(?:smtp\.)?example\.(?:com|org|net)\b|smtp\.example\./i;

const require = createRequire(import.meta.url);
const parseDotenv = (require('firebase-tools/lib/functions/env') as { parse: (text: string) => { envs: Record<string, string>; errors: string[] } }).parse;

export interface ExtensionParams {
  ref?: string;
  params: Record<string, string>;
  /** The files read, in order (relative to the root). */
  files: string[];
  errors: string[];
}

/** The aliases `firebase use --add` gave this project in .firebaserc. */
function aliasesOf(root: string, projectId: string): string[] {
  const rc = join(root, '.firebaserc');
  if (!existsSync(rc)) return [];
  const projects = (JSON.parse(readFileSync(rc, 'utf8')) as { projects?: Record<string, string> }).projects ?? {};
  return Object.entries(projects)
    .filter(([, id]) => id === projectId)
    .map(([alias]) => alias);
}

/** The extension's ref and params as `firebase deploy --only extensions --project <id>` will read them (before it fills in ${param:PROJECT_ID}). */
export function readExtensionParams(root: string, projectId: string, instanceId = MAIL_EXTENSION): ExtensionParams {
  const config = JSON.parse(readFileSync(join(root, 'firebase.json'), 'utf8')) as { extensions?: Record<string, string> };
  const candidates = [`${instanceId}.env`, ...aliasesOf(root, projectId).map((a) => `${instanceId}.env.${a}`), `${instanceId}.env.${projectId}`];
  const params: Record<string, string> = {};
  const files: string[] = [];
  const errors: string[] = [];
  for (const file of candidates) {
    const path = join(root, 'extensions', file);
    if (!existsSync(path)) continue;
    const { envs, errors: bad } = parseDotenv(readFileSync(path, 'utf8').trim());
    files.push(`extensions/${file}`);
    errors.push(...bad.map((line) => `extensions/${file}: cannot read "${line}"`));
    Object.assign(params, envs);
  }
  return { ref: config.extensions?.[instanceId], params, files, errors };
}

/** The Secret Manager secret the SMTP_PASSWORD param names, for this project. */
export function smtpSecretName(params: Record<string, string>, projectId: string): string | undefined {
  const value = (params.SMTP_PASSWORD ?? '').replaceAll('${param:PROJECT_ID}', projectId).replaceAll('${PROJECT_ID}', projectId);
  return SECRET_VERSION.exec(value)?.[2];
}

/** Trigger Email: pinned in firebase.json, and every param it needs filled in for this project. */
export function checkMailParams(root: string, projectId: string, databaseLocation?: string): Check {
  const name = `Trigger Email extension params (extensions/${MAIL_EXTENSION}.env*)`;
  const own = `extensions/${MAIL_EXTENSION}.env.${projectId}`;
  const fill = `cp extensions/${MAIL_EXTENSION}.env.example ${own} and fill in DEFAULT_FROM, SMTP_CONNECTION_URI (no password in it) and DATABASE_REGION (see docs/deploying.md)`;
  const { ref, params, files, errors } = readExtensionParams(root, projectId);
  if (!ref || !PINNED_REF.test(ref)) {
    return {
      name,
      ok: false,
      detail: ref ? `firebase.json pins "${ref}", not a version of firebase/firestore-send-email` : `firebase.json has no "extensions": { "${MAIL_EXTENSION}": ... }`,
      fix: `Add "extensions": { "${MAIL_EXTENSION}": "firebase/firestore-send-email@<version>" } to firebase.json (docs/deploying.md names the version checked)`,
    };
  }
  if (!files.some((f) => f !== `extensions/${MAIL_EXTENSION}.env`)) return { name, ok: false, detail: `${own} does not exist`, fix: fill };
  const problems = [...errors];
  const from = params.DEFAULT_FROM ?? '';
  if (!from) problems.push('DEFAULT_FROM is empty');
  else if (EXAMPLE_DOMAIN.test(from)) problems.push(`DEFAULT_FROM is the example "${from}"`);
  const uri = params.SMTP_CONNECTION_URI ?? '';
  if (!uri) problems.push('SMTP_CONNECTION_URI is empty');
  else if (!SMTP_URI.test(uri) || !/^smtps?:\/\//.test(uri)) problems.push(`SMTP_CONNECTION_URI "${uri}" is not smtp(s)://[user@]host:port`);
  else if (/^smtps?:\/\/[^@/]*:[^@/]*@/.test(uri)) problems.push('SMTP_CONNECTION_URI carries a password: remove it (keep user@host:port); the password belongs in the SMTP_PASSWORD secret');
  else if (EXAMPLE_DOMAIN.test(uri)) problems.push(`SMTP_CONNECTION_URI is the example "${uri}"`);
  if (/:25(?:$|[?/])/.test(uri)) problems.push('SMTP_CONNECTION_URI uses port 25, which Google Cloud blocks (use 465 or 587)');
  const region = params.DATABASE_REGION ?? '';
  if (!region) problems.push('DATABASE_REGION is empty');
  else if (databaseLocation && region !== databaseLocation) problems.push(`DATABASE_REGION is "${region}" but the Firestore database is in "${databaseLocation}"`);
  if (params.MAIL_COLLECTION !== MAIL_COLLECTION) problems.push(`MAIL_COLLECTION is "${params.MAIL_COLLECTION ?? ''}" but the function queues mail in "${MAIL_COLLECTION}" (functions/src/orders/mail.ts)`);
  if ((params.DATABASE ?? '(default)') !== '(default)') problems.push(`DATABASE is "${params.DATABASE}" but the function writes to "(default)"`);
  if ((params.AUTH_TYPE ?? 'UsernamePassword') === 'UsernamePassword' && !smtpSecretName(params, projectId)) {
    problems.push('SMTP_PASSWORD is not a secret version (projects/${param:PROJECT_ID}/secrets/<name>/versions/latest)');
  }
  if (problems.length > 0) return { name, ok: false, detail: problems.join('; '), fix: `Edit ${files.includes(own) ? own : fill}` };
  return { name, ok: true, detail: `${ref}, from ${from} via ${uri}, collection ${params.MAIL_COLLECTION}, database (default) in ${region} (${files.join(', ')})` };
}

/** The SMTP password exists in Secret Manager with an enabled version (its value is never read). */
export async function checkMailSecret(cli: FirebaseCli, root: string, projectId: string): Promise<Check> {
  const { params } = readExtensionParams(root, projectId);
  const secret = smtpSecretName(params, projectId);
  if ((params.AUTH_TYPE ?? 'UsernamePassword') !== 'UsernamePassword') return { name: 'Trigger Email SMTP password', ok: true, detail: `not used (AUTH_TYPE ${params.AUTH_TYPE})` };
  const name = `Secret ${secret ?? 'SMTP_PASSWORD'} (Secret Manager, Trigger Email's SMTP password)`;
  if (!secret) return { name, ok: false, detail: `extensions/${MAIL_EXTENSION}.env names no secret version in SMTP_PASSWORD`, fix: `Restore SMTP_PASSWORD in extensions/${MAIL_EXTENSION}.env (git checkout extensions/${MAIL_EXTENSION}.env)` };
  const create = `read -rs P && printf '%s' "$P" | gcloud secrets create ${secret} --project ${projectId} --replication-policy=automatic --labels=firebase-extensions-managed=${MAIL_EXTENSION} --data-file=-   (type the SMTP password, then Enter; needs: gcloud auth login)`;
  const meta = await cli(['functions:secrets:get', secret, '--project', projectId, '--json']);
  if (meta.code !== 0) {
    if (NOT_FOUND.test(`${meta.stdout}\n${meta.stderr}`)) return { name, ok: false, detail: 'not set', fix: create };
    return unchecked(name, meta, `npx firebase functions:secrets:get ${secret} --project ${projectId}`);
  }
  if (!enabledVersion(meta.stdout)) {
    return { name, ok: false, detail: 'no enabled version', fix: `read -rs P && printf '%s' "$P" | gcloud secrets versions add ${secret} --project ${projectId} --data-file=-` };
  }
  return { name, ok: true, detail: 'set (value not read)' };
}
