import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { HEAP_PERCENT, PRODUCTION_NODE_OPTIONS } from '../../functions/src/lib/heap';

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
  const fix = `Cards off: ${set('STRIPE_SECRET_KEY', 'off')} and ${set('STRIPE_WEBHOOK_SECRET', 'off')}; cards on: the secret key from the Stripe dashboard (Developers > API keys) and the signing secret of the endpoint https://<your-site>/api/stripe/webhook (Developers > Webhooks), set the same way (docs/operations.md, "4b. Card payments (Stripe)")`;
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

/** Firestore: the (default) database exists; where, and its protection settings are returned. */
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

// The shop's mail (decision 037): the `sendMail` function sends each document queued in `mail`
// through the SMTP server in the SMTP_URI secret, from the MAIL_FROM param. `firebase deploy`
// reads params from functions/.env, .env.<alias> and .env.<project-id> (later files win); these
// checks read them the same way, with firebase-tools' own parser.

export const SMTP_SECRET = 'SMTP_URI';
/** The param's local default (functions/src/config.ts): good for the developer's inbox, never for a shop. */
const LOCAL_FROM_DOMAIN = /@[^>\s]*\.localhost\b/i;
const EXAMPLE_DOMAIN = /@(?:smtp\.)?example\.(?:com|org|net)\b|(?:^|[@.])example\.(?:com|org|net)(?::|$|\/)|smtp\.example\./i;
const MAILBOX = /^(?:[^<>]*<\s*[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+\s*>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/;

const require = createRequire(import.meta.url);
const parseDotenv = (require('firebase-tools/lib/functions/env') as { parse: (text: string) => { envs: Record<string, string>; errors: string[] } }).parse;

/** The aliases `firebase use --add` gave this project in .firebaserc. */
function aliasesOf(root: string, projectId: string): string[] {
  const rc = join(root, '.firebaserc');
  if (!existsSync(rc)) return [];
  const projects = (JSON.parse(readFileSync(rc, 'utf8')) as { projects?: Record<string, string> }).projects ?? {};
  return Object.entries(projects)
    .filter(([, id]) => id === projectId)
    .map(([alias]) => alias);
}

export interface FunctionParams {
  params: Record<string, string>;
  /** The files read, in order (relative to the root). */
  files: string[];
  errors: string[];
}

/** The functions' params as `firebase deploy --only functions --project <id>` will read them. */
export function readFunctionParams(root: string, projectId: string): FunctionParams {
  const candidates = ['.env', ...aliasesOf(root, projectId).map((a) => `.env.${a}`), `.env.${projectId}`];
  const params: Record<string, string> = {};
  const files: string[] = [];
  const errors: string[] = [];
  for (const file of candidates) {
    const path = join(root, 'functions', file);
    if (!existsSync(path)) continue;
    const { envs, errors: bad } = parseDotenv(readFileSync(path, 'utf8').trim());
    files.push(`functions/${file}`);
    errors.push(...bad.map((line) => `functions/${file}: cannot read "${line}"`));
    Object.assign(params, envs);
  }
  return { params, files, errors };
}

/** MAIL_FROM: the sender of the shop's mail, set for this project and not the local or an example address. */
export function checkMailFrom(root: string, projectId: string): Check {
  const name = 'Mail sender (MAIL_FROM in functions/.env*)';
  const own = `functions/.env.${projectId}`;
  const fix = `Set it in ${own} (committed; no secret in it): echo 'MAIL_FROM=Bookstore <orders@your-domain.com>' >> ${own}   (an address your SMTP provider lets you send from)`;
  const { params, files, errors } = readFunctionParams(root, projectId);
  const from = params.MAIL_FROM ?? '';
  const problems = [...errors];
  if (!from) problems.push(files.length ? `MAIL_FROM is not set in ${files.join(', ')}` : `MAIL_FROM is not set (no ${own})`);
  else if (!MAILBOX.test(from)) problems.push(`MAIL_FROM "${from}" is not an address ("Name <name@domain>" or "name@domain")`);
  else if (LOCAL_FROM_DOMAIN.test(from)) problems.push(`MAIL_FROM is the local address "${from}"`);
  else if (EXAMPLE_DOMAIN.test(from)) problems.push(`MAIL_FROM is the example "${from}"`);
  if (problems.length > 0) return { name, ok: false, detail: problems.join('; '), fix };
  return { name, ok: true, detail: `${from} (${files.join(', ')})` };
}

/**
 * NODE_OPTIONS: each function's heap limit as a share of its own memory (functions/src/lib/heap.ts,
 * issue 58), the figure the rehearsal and the bench boot each function with. Without it Node sizes
 * the heap by its own rule and the `search` function's index (about 600 MiB at 100,000 books) may not fit.
 */
export function checkHeapOption(root: string, projectId: string): Check {
  const name = 'Heap limit (NODE_OPTIONS in functions/.env*)';
  const own = `functions/.env.${projectId}`;
  const { params, files } = readFunctionParams(root, projectId);
  const value = params.NODE_OPTIONS ?? '';
  if (value.split(/\s+/).includes(PRODUCTION_NODE_OPTIONS)) return { name, ok: true, detail: `${value} (${files.join(', ')})` };
  return {
    name,
    ok: false,
    detail: value ? `NODE_OPTIONS is "${value}", without ${PRODUCTION_NODE_OPTIONS}` : `NODE_OPTIONS is not set${files.length ? ` in ${files.join(', ')}` : ` (no ${own})`}`,
    fix: `echo 'NODE_OPTIONS=${PRODUCTION_NODE_OPTIONS}' >> ${own}   (each function's heap: ${HEAP_PERCENT}% of its memory, as the rehearsal boots it)`,
  };
}

/** Why an SMTP_URI value cannot send the shop's mail from Cloud Run, or null. Never echoes the password. */
export function smtpUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a URL: smtps://user:password@host:465 or smtp://user:password@host:587';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return `it starts with ${url.protocol}// (smtps:// or smtp:// expected)`;
  if (!url.hostname) return 'it names no host';
  if (/^(localhost|127\.|\[?::1\]?$)/.test(url.hostname) || url.hostname.endsWith('.localhost')) return `its host ${url.hostname} is this machine, not a mail server`;
  if (EXAMPLE_DOMAIN.test(`@${url.hostname}`)) return `its host ${url.hostname} is an example`;
  if (url.port === '25') return 'it uses port 25, which Google Cloud blocks (465 with smtps://, 587 with smtp://)';
  if (url.username && !url.password) return 'it has a user name but no password';
  // The password and the customers' mail must not cross the internet in clear (issue 55); the
  // function refuses it too (functions/src/mail/send-mail.ts smtpUriRefusal).
  if (url.protocol === 'smtp:' && url.searchParams.get('requireTLS') !== 'true') return `it sends without TLS: use smtps://...@${url.hostname}:465, or smtp://...@${url.hostname}:587?requireTLS=true (STARTTLS required)`;
  return null;
}

/** How SMTP_URI is shown: scheme, user, host and port; the password replaced. */
export function smtpUriShown(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.username ? `${decodeURIComponent(url.username)}:***@` : ''}${url.host}`;
  } catch {
    return '(not a URL)';
  }
}

/** SMTP_URI exists in Secret Manager with an enabled version whose value can send from Cloud Run (read, never shown). */
export async function checkSmtpSecret(cli: FirebaseCli, projectId: string): Promise<Check> {
  const name = `Secret ${SMTP_SECRET} (Secret Manager, the sendMail function's SMTP server)`;
  const fix = `read -rs U && printf '%s' "$U" | npx firebase functions:secrets:set ${SMTP_SECRET} --project ${projectId} --data-file=-   (type smtps://user:password@smtp.your-provider.com:465, then Enter: it is not echoed)`;
  const meta = await cli(['functions:secrets:get', SMTP_SECRET, '--project', projectId, '--json']);
  if (meta.code !== 0) {
    if (NOT_FOUND.test(`${meta.stdout}\n${meta.stderr}`)) return { name, ok: false, detail: 'not set', fix };
    return unchecked(name, meta, `npx firebase functions:secrets:get ${SMTP_SECRET} --project ${projectId}`);
  }
  if (!enabledVersion(meta.stdout)) return { name, ok: false, detail: 'no enabled version', fix };
  const value = await cli(['functions:secrets:access', SMTP_SECRET, '--project', projectId]);
  if (value.code !== 0) return { name, ok: false, detail: `its value could not be read: ${cliError(value)}`, fix };
  const uri = value.stdout.replace(/\r?\n$/, '');
  const problem = smtpUriProblem(uri);
  if (problem) return { name, ok: false, detail: `${smtpUriShown(uri)}: ${problem}`, fix };
  return { name, ok: true, detail: `set, ${smtpUriShown(uri)} (password not shown)` };
}

// PUBLIC_ORIGIN (issue 58): the shop's address in Stripe's return URL, the mail's links, canonical
// and sitemap URLs (functions/src/pages/site-origin.ts) and robots.txt (web/vite.config.ts). Unset,
// the functions fall back to https://<project>.web.app, which sends the shoppers of a shop on its own
// domain elsewhere; so a release names it explicitly, even when it is the web.app address.

export const PUBLIC_ORIGIN = 'PUBLIC_ORIGIN';

/** PUBLIC_ORIGIN from functions/.env* (as firebase deploy reads it): an https origin, not this machine or an example. */
export function checkPublicOrigin(root: string, projectId: string): Check & { origin?: string } {
  const name = `Shop address (${PUBLIC_ORIGIN} in functions/.env*)`;
  const own = `functions/.env.${projectId}`;
  const fix = `Set it in ${own} (committed; no secret in it): echo '${PUBLIC_ORIGIN}=https://${projectId}.web.app' >> ${own}   (or your own domain, https://shop.your-domain.com, once it is connected in Hosting and listed in Authentication's authorized domains)`;
  const { params, files } = readFunctionParams(root, projectId);
  const value = params[PUBLIC_ORIGIN] ?? '';
  if (!value) return { name, ok: false, detail: files.length ? `${PUBLIC_ORIGIN} is not set in ${files.join(', ')}` : `${PUBLIC_ORIGIN} is not set (no ${own})`, fix };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { name, ok: false, detail: `${PUBLIC_ORIGIN} "${value}" is not a URL`, fix };
  }
  const problem =
    url.protocol !== 'https:'
      ? `${PUBLIC_ORIGIN} "${value}" is not https://`
      : /^(localhost|127\.|\[::1\])/.test(url.hostname) || url.hostname.endsWith('.localhost')
        ? `${PUBLIC_ORIGIN} "${value}" is this machine`
        : EXAMPLE_DOMAIN.test(`@${url.hostname}`) || /(^|\.)example$/.test(url.hostname)
          ? `${PUBLIC_ORIGIN} "${value}" is an example`
          : url.pathname !== '/' || url.search || url.hash
            ? `${PUBLIC_ORIGIN} "${value}" has a path or query: give the origin alone (${url.origin})`
            : null;
  if (problem) return { name, ok: false, detail: problem, fix };
  const ownDomain = url.hostname !== `${projectId}.web.app` && url.hostname !== `${projectId}.firebaseapp.com`;
  return { name, ok: true, detail: `${url.origin} (${files.join(', ')})${ownDomain ? '; a domain of your own: it must be connected in Hosting and listed in Authentication > Settings > Authorized domains' : ''}`, origin: url.origin };
}

/** A Hosting site as `hosting:sites:list --json` lists it. */
interface HostingSite {
  name: string;
  type?: string;
  defaultUrl?: string;
}

/**
 * Hosting's default site. A project without one (Hosting never set up in the console) makes
 * `firebase deploy --only hosting --non-interactive` fail after the functions are live ("Unable to
 * deploy to Hosting as there is no Hosting site"): the release creates it first instead (`create`).
 */
export async function checkHostingSite(cli: FirebaseCli, projectId: string): Promise<Check & { create?: string }> {
  const name = 'Hosting site';
  const answer = await cli(['hosting:sites:list', '--project', projectId, '--json']);
  if (answer.code !== 0) return unchecked(name, answer, `npx firebase hosting:sites:list --project ${projectId}`);
  const sites = jsonResult<{ sites?: HostingSite[] }>(answer.stdout)?.sites ?? [];
  const id = (site: HostingSite) => site.name.split('/').pop()!;
  const site = sites.find((s) => s.type === 'DEFAULT_SITE') ?? sites.find((s) => id(s) === projectId);
  if (site) return { name, ok: true, detail: `default site ${id(site)} (${site.defaultUrl ?? `https://${id(site)}.web.app`})` };
  return { name, ok: true, detail: `none yet: the release creates the default site ${projectId} before anything else (firebase hosting:sites:create ${projectId})`, create: projectId };
}

/** A deployed function as `functions:list --json` lists it (firebase-tools' Endpoint). */
export interface ListedFunction {
  id: string;
  region: string;
  codebase?: string;
  platform?: string;
}

/**
 * A release deploys the functions with --force (the answer to the cleanup-policy question, which
 * without a terminal otherwise fails the stage after the functions are live), and --force also
 * deletes, without asking, every function of the codebase the code no longer exports. So the
 * functions the project has are compared with the code's first: one that would go stops the release
 * before anything changes, unless named with --allow-delete.
 */
export async function checkFunctionDeletions(
  cli: FirebaseCli,
  projectId: string,
  code: { name: string; region: string }[],
  allowDelete: string[],
  codebase = 'default',
): Promise<Check & { deleted?: string[] }> {
  const name = 'Functions this release would delete';
  const answer = await cli(['functions:list', '--project', projectId, '--json']);
  if (answer.code !== 0) {
    const check = unchecked(name, answer, `npx firebase functions:list --project ${projectId}`);
    // firebase-tools says only "Failed to list functions for <id>" (the cause goes to its debug log);
    // on a project that never had functions it is the Cloud Functions API, still off.
    if (!/Failed to list functions/i.test(cliError(answer))) return check;
    return { ...check, fix: `on a project that never had functions, enable the Cloud Functions API first (https://console.cloud.google.com/apis/library/cloudfunctions.googleapis.com?project=${projectId}, or: gcloud services enable cloudfunctions.googleapis.com --project ${projectId}), then run the deploy again; otherwise: ${check.fix}` };
  }
  let listed: ListedFunction[];
  try {
    listed = (JSON.parse(answer.stdout) as { result?: ListedFunction[] }).result ?? [];
  } catch {
    return { name, ok: false, detail: `functions:list gave no JSON: ${answer.stdout.slice(0, 200)}`, fix: `npx firebase functions:list --project ${projectId}` };
  }
  const wanted = new Set(code.map((f) => `${f.region}/${f.name}`));
  const gone = listed.filter((f) => (f.codebase ?? 'default') === codebase && !wanted.has(`${f.region}/${f.id}`));
  if (gone.length === 0) return { name, ok: true, detail: listed.length ? `none (${listed.length} deployed, every one still in functions/src/index.ts)` : 'none (no function deployed yet)', deleted: [] };
  const refused = gone.filter((f) => !allowDelete.includes(f.id));
  const label = (f: ListedFunction) => `${f.id} (${f.region})`;
  if (refused.length === 0) return { name, ok: true, detail: `${gone.map(label).join(', ')}: deleted by this release (--allow-delete)`, deleted: gone.map((f) => f.id) };
  return {
    name,
    ok: false,
    detail: `${refused.map(label).join(', ')} ${refused.length > 1 ? 'are' : 'is'} deployed but no longer exported by functions/src/index.ts: the release would delete ${refused.length > 1 ? 'them' : 'it'}`,
    fix: `if ${refused.length > 1 ? 'they are' : 'it is'} meant to go: npm run deploy -- --project ${projectId} ${refused.map((f) => `--allow-delete ${f.id}`).join(' ')}   (or delete ${refused.length > 1 ? 'them' : 'it'} first: ${refused.map((f) => `npx firebase functions:delete ${f.id} --region ${f.region} --project ${projectId}`).join('; ')}); if not, restore the export in functions/src/index.ts`,
  };
}
