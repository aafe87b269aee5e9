import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetNames, narrowAssetRules } from './asset-headers';
import { BACKUP_RETENTION, CREATE_DAILY_BACKUP, describeProtection, PROTECT_DATABASE, protectDatabase, type DatabaseState } from './database-protection';
import { cliArgs } from './env';
import {
  checkFirestore,
  checkFunctionDeletions,
  checkHostingSite,
  checkHeapOption,
  checkMailFrom,
  checkPublicOrigin,
  checkSecret,
  checkSmtpSecret,
  checkStripeSecrets,
  checkStorage,
  checkWebConfig,
  isProjectId,
  PUBLIC_ORIGIN,
  readFunctionParams,
  type Check,
  type FirebaseCli,
} from './deploy-checks';
import { codeFunctions } from './function-exports';
import { indexSpecs, waitForIndexes, type ApiIndex } from './index-wait';

// `npm run deploy -- --project <id> [--dry-run]`: checks, production builds, then the release in an
// order where nothing is live before what it depends on (docs/decisions/017-deploy-order.md):
// the database's protection (point-in-time recovery, delete protection, a daily backup); rules and
// indexes; a wait until every composite index is READY; the functions (the shop's mail among them:
// decision 037); Hosting last. Production output goes to web/dist-prod, which `npm start`/`npm test`
// (web/dist, emulator mode) never touch; Hosting is pointed at it through a generated
// firebase.deploy.json (firebase.json plus `public: web/dist-prod`), so the emulators keep reading
// firebase.json unchanged.
//
// Unattended (issue 58): `npm run deploy -- ... </dev/null` needs no terminal. Every firebase-tools
// call gets --non-interactive (it errs instead of waiting for an answer, the same with or without a
// terminal); the functions stage also --force, firebase-tools' answer to the Artifact Registry
// cleanup-policy question (keep images 1 day), asked after the functions are live. --force also
// deletes functions the code no longer exports, so the checks refuse that first (checkFunctionDeletions).
// The rules stage never gets --force: there it would delete indexes the file does not list.

export const PROD_OUT_DIR = 'dist-prod'; // under web/
export const DEPLOY_CONFIG = 'firebase.deploy.json';
/** Strings only an emulator build contains; a production bundle carrying one is refused. */
const EMULATOR_MARKERS = ['127.0.0.1:9099', 'localhost:9099', 'demo-api-key', 'demo-bookstore'];
const FIREBASE = 'node_modules/firebase-tools/lib/bin/firebase.js';
export const INDEX_POLL_MS = 15_000;
export const DEFAULT_INDEX_TIMEOUT_MIN = 20;

/** The release, in order; `--from <stage>` resumes at one (after a stopped index wait or a failed step). */
export const STAGES = ['database', 'rules', 'index-wait', 'functions', 'hosting'] as const;
export type Stage = (typeof STAGES)[number];
/** The stages that are one `firebase deploy --only ...` each. */
type DeployStage = Exclude<Stage, 'database' | 'index-wait'>;

/** Makes firebase-tools err instead of prompting, with or without a terminal. */
export const NON_INTERACTIVE = '--non-interactive';
/** What each `firebase deploy` of the release ships (`--only`). */
export const RELEASE_ONLY: Record<DeployStage, string> = {
  rules: 'firestore:rules,firestore:indexes,storage',
  functions: 'functions',
  hosting: 'hosting',
};

export interface DeployArgs {
  projectId: string;
  dryRun: boolean;
  /** The first stage to release (earlier ones were released by a previous run). */
  from: Stage;
  skipIndexWait: boolean;
  indexTimeoutMin: number;
  /** Deployed functions the code no longer exports that this release may delete (--allow-delete <name>, repeatable). */
  allowDelete: string[];
}

export interface Step {
  label: string;
  cmd: string;
  args: string[];
  /** Added to the environment it runs in. */
  env?: Record<string, string>;
}

export interface DeployDeps {
  root: string;
  /** The firebase CLI for queries: output captured, never shown (the secret's value passes here). */
  cli: FirebaseCli;
  /** Runs a build or deploy step with its output shown; throws when it fails. */
  run: (step: Step) => Promise<void>;
  log: (line: string) => void;
  /** The Firestore Admin API's index list with states (firestore-index-api.ts). */
  listIndexes: (projectId: string) => Promise<ApiIndex[]>;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const USAGE =
  `Usage: npm run deploy -- --project <project-id> [--dry-run] [--from ${STAGES.join('|')}] [--skip-index-wait] [--index-timeout <minutes>] [--allow-delete <function>]...   (a default project: npx firebase use --add)`;

/** Reads --project (or .firebaserc's default, written by `firebase use --add`), --dry-run and the resume options. */
export function parseDeployArgs(argv: string[], root: string): DeployArgs {
  const options = {
    project: { type: 'string', short: 'P' },
    'dry-run': { type: 'boolean', default: false },
    from: { type: 'string', default: STAGES[0] },
    'skip-index-wait': { type: 'boolean', default: false },
    'index-timeout': { type: 'string', default: String(DEFAULT_INDEX_TIMEOUT_MIN) },
    'allow-delete': { type: 'string', multiple: true },
  } as const;
  const { values } = cliArgs(argv, options, USAGE);
  let projectId = values.project;
  const dryRun = values['dry-run'];
  if (!projectId) {
    const rc = join(root, '.firebaserc');
    if (existsSync(rc)) projectId = (JSON.parse(readFileSync(rc, 'utf8')) as { projects?: { default?: string } }).projects?.default;
  }
  if (!projectId) throw new Error(`No project given. ${USAGE}`);
  if (!isProjectId(projectId)) throw new Error(`"${projectId}" is not a Firebase project id (6-30 lowercase letters, digits, hyphens). ${USAGE}`);
  if (projectId.startsWith('demo-')) throw new Error(`"${projectId}" is a demo project: it exists only in the emulators and cannot be deployed to.`);
  const from = values.from as Stage;
  if (!STAGES.includes(from)) throw new Error(`--from "${values.from}" is not one of ${STAGES.join(', ')}. ${USAGE}`);
  const indexTimeoutMin = Number(values['index-timeout']);
  if (!(indexTimeoutMin > 0)) throw new Error(`--index-timeout "${values['index-timeout']}" is not a number of minutes. ${USAGE}`);
  return { projectId, dryRun, from, skipIndexWait: values['skip-index-wait'], indexTimeoutMin, allowDelete: values['allow-delete'] ?? [] };
}

/** `publicOrigin`: PUBLIC_ORIGIN as the functions get it, so robots.txt names the same origin even when an alias file sets it. */
export function buildSteps(publicOrigin?: string): Step[] {
  const node = process.execPath;
  // Web first: the function ships this build's shell and book frame (its asset names), not web/dist's.
  return [
    {
      label: `Build the web app in production mode (web/${PROD_OUT_DIR})`,
      cmd: node,
      args: ['node_modules/vite/bin/vite.js', 'build', 'web', '--mode', 'production', '--outDir', PROD_OUT_DIR, '--emptyOutDir', '--logLevel', 'warn'],
      ...(publicOrigin ? { env: { [PUBLIC_ORIGIN]: publicOrigin } } : {}),
    },
    { label: `Build the function bundle (functions/lib, with web/${PROD_OUT_DIR}'s book-page shell)`, cmd: node, args: ['functions/build.mjs', '--web-dist', `web/${PROD_OUT_DIR}`] },
  ];
}

const RELEASE_LABELS: Record<DeployStage, string> = {
  rules: 'Deploy the Firestore rules and indexes, and the Storage rules',
  functions: "Deploy the functions (until Hosting has the new build, `pages` serves the /assets/ files its pages name)",
  hosting: 'Deploy Hosting, last (the site goes live on the code, indexes and rules above)',
};

/**
 * `--force` answers the Artifact Registry cleanup-policy question (firebase-tools 15
 * deploy/functions/prompts.js promptForCleanupPolicyDays: 1 day, its DEFAULT_CLEANUP_DAYS); only the
 * functions get it, after checkFunctionDeletions (it deletes unexported functions too).
 */
const FORCED: Partial<Record<DeployStage, true>> = { functions: true };

/** One `firebase deploy` of the release. */
export function releaseStep(stage: DeployStage, projectId: string): Step {
  return {
    label: RELEASE_LABELS[stage],
    cmd: process.execPath,
    args: [FIREBASE, 'deploy', '--only', RELEASE_ONLY[stage], '--project', projectId, '--config', DEPLOY_CONFIG, NON_INTERACTIVE, ...(FORCED[stage] ? ['--force'] : [])],
  };
}

/**
 * `--from hosting`: `pages` renders with the web build's manifest (its /assets/ names), so the
 * Hosting release carries the `pages` built with it; an old `pages` would name files the new
 * Hosting release no longer has. Deployed just before Hosting, as in a whole release (decision 033).
 */
export function pagesStep(projectId: string): Step {
  return {
    label: 'Deploy the pages function (it names the new web build\'s /assets/ files: a Hosting release carries it)',
    cmd: process.execPath,
    args: [FIREBASE, 'deploy', '--only', 'functions:pages', '--project', projectId, '--config', DEPLOY_CONFIG, NON_INTERACTIVE, '--force'],
  };
}

/** A project without a Hosting site gets its default one, named after the project (as firebase-tools' own `apps:create` offers). */
export function createSiteStep(projectId: string): Step {
  return { label: `Create the default Hosting site ${projectId} (the project has none)`, cmd: process.execPath, args: [FIREBASE, 'hosting:sites:create', projectId, '--project', projectId, NON_INTERACTIVE] };
}

/** A firebase CLI command of the release that is not a deploy (the database's protection). */
function firebaseStep(label: string, args: string[]): Step {
  return { label, cmd: process.execPath, args: [FIREBASE, ...args, NON_INTERACTIVE] };
}

/** After a failed stage: what else to know before resuming. */
const RESUME_NOTES: Partial<Record<Stage, string>> = {
  // firebase-tools 15 prints, on a project's first 2nd-gen functions: "Since this is your first time
  // using 2nd gen functions, we need a little bit longer to finish setting everything up. Retry the
  // deployment in a few minutes." (Google: "If you recently started to use Eventarc, it may take a
  // few minutes before all necessary permissions are propagated to the Service Agent").
  functions:
    "On a project's first release this stage can fail while Eventarc's permissions propagate (\"we need a little bit longer to finish setting everything up\", \"may take a few minutes before all necessary permissions are propagated\"): nothing is wrong; wait about 5 minutes and resume. \"Unable to set the invoker for the IAM policy\" is a permission or an organisation policy (Domain restricted sharing refuses allUsers): docs/deploying.md, \"Who can release\".",
};

export interface Checked {
  checks: Check[];
  /** The Hosting site the release creates first, when the project has none. */
  createSite?: string;
}

/** Every check, local and remote; `deps.cli` here already adds --non-interactive. */
export async function runChecks(args: DeployArgs, deps: DeployDeps): Promise<Checked> {
  const { projectId } = args;
  const checks: Check[] = [checkWebConfig(deps.root, projectId)];
  // The remote checks run in turn: the CLI is slow to start and they share its login.
  checks.push(await checkSecret(deps.cli, projectId));
  checks.push(await checkStripeSecrets(deps.cli, projectId));
  const firestore = await checkFirestore(deps.cli, projectId);
  const protection = firestore.ok && firestore.database ? `; ${describeProtection(firestore.database as DatabaseState)}` : '';
  checks.push({ name: firestore.name, ok: firestore.ok, detail: `${firestore.detail}${protection}`, fix: firestore.fix });
  checks.push(await checkStorage(deps.cli, projectId, 'firebase.json'));
  checks.push(checkMailFrom(deps.root, projectId));
  checks.push(checkHeapOption(deps.root, projectId));
  checks.push(await checkSmtpSecret(deps.cli, projectId));
  checks.push(checkPublicOrigin(deps.root, projectId));
  const site = await checkHostingSite(deps.cli, projectId);
  checks.push(site);
  const deletions = await checkFunctionDeletions(deps.cli, projectId, codeFunctions(deps.root), args.allowDelete);
  // `--from hosting` deploys only `pages` (a filter: nothing else is touched, nothing deleted).
  if (!deletions.ok && args.from === 'hosting') checks.push({ ...deletions, ok: true, detail: `${deletions.detail} (not by this run: --from hosting deploys only pages; the next whole release will refuse it)` });
  else checks.push(deletions);
  return { checks, createSite: site.create };
}

export function formatCheck(check: Check): string[] {
  const lines = [`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`];
  if (!check.ok && check.fix) lines.push(`       fix: ${check.fix}`);
  return lines;
}

/** Files of a built web app that still carry an emulator build's settings. */
export function emulatorTraces(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(js|html)$/.test(name)) {
        const text = readFileSync(path, 'utf8');
        for (const marker of EMULATOR_MARKERS) if (text.includes(marker)) found.push(`${path.slice(dir.length + 1)} contains "${marker}"`);
      }
    }
  };
  walk(dir);
  return found;
}

/**
 * firebase.json with Hosting serving the production build, its immutable `/assets/**` rule narrowed
 * to the files that build ships (asset-headers.ts: a 404 for any other name is never cached), and no
 * predeploy builds (done already).
 */
export function deployConfig(firebaseJson: string, assets: string[] = []): string {
  const config = JSON.parse(firebaseJson) as { hosting: Record<string, unknown>; functions?: Record<string, unknown>[] };
  config.hosting = narrowAssetRules(config.hosting, assets);
  config.hosting.public = `web/${PROD_OUT_DIR}`;
  delete config.hosting.predeploy;
  for (const fn of config.functions ?? []) delete fn.predeploy;
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** The plan, numbered; stages before --from are marked skipped. */
export function planLines(args: DeployArgs, root: string): string[] {
  const { projectId } = args;
  const command = (step: Step) => `firebase ${step.args.slice(1).join(' ')}`;
  const skipped = (stage: Stage) => STAGES.indexOf(stage) < STAGES.indexOf(args.from);
  const builds = buildSteps();
  const indexes = indexSpecs(readFileSync(join(root, 'firestore.indexes.json'), 'utf8')).length;
  const project = ['--project', projectId];
  const release: [Stage, string][] = [
    [
      'database',
      `Protect the Firestore database: point-in-time recovery (7 days) and delete protection on: firebase ${[...PROTECT_DATABASE, ...project, NON_INTERACTIVE].join(' ')}; a daily backup kept ${BACKUP_RETENTION}, unless the database has a daily schedule: firebase ${[...CREATE_DAILY_BACKUP, ...project, NON_INTERACTIVE].join(' ')}`,
    ],
    ['rules', `${RELEASE_LABELS.rules}: ${command(releaseStep('rules', projectId))}`],
    [
      'index-wait',
      args.skipIndexWait
        ? 'Do not wait for the composite indexes (--skip-index-wait): queries on an index still building answer 503 (Retry-After) until it is READY'
        : `Wait until the ${indexes} composite indexes of firestore.indexes.json are READY (Firestore Admin API index list, every ${INDEX_POLL_MS / 1000} s, at most ${args.indexTimeoutMin} min; on a timeout it stops and prints the command to resume)`,
    ],
    ['functions', `${RELEASE_LABELS.functions}: ${command(releaseStep('functions', projectId))} (--force answers the container-image cleanup question: 1 day)`],
    [
      'hosting',
      `${args.from === 'hosting' ? `${pagesStep(projectId).label}: ${command(pagesStep(projectId))}; then ` : ''}${RELEASE_LABELS.hosting}: ${command(releaseStep('hosting', projectId))}`,
    ],
  ];
  const lines = [
    ...builds.map((s) => s.label),
    `Refuse the web build if it carries an emulator setting (${EMULATOR_MARKERS.join(', ')})`,
    `Write ${DEPLOY_CONFIG}: firebase.json with Hosting's public folder web/${PROD_OUT_DIR}, its immutable /assets/ header rule narrowed to the files that build ships (a 404 for any other name is never cached)`,
    `If the project has no Hosting site, create its default one first: ${command(createSiteStep(projectId))}`,
    ...release.map(([stage, line]) => (skipped(stage) ? `(skipped, --from ${args.from}) ${line}` : line)),
  ];
  return lines.map((line, i) => `  ${i + 1}. ${line}`);
}

/** Checks, then (unless a dry run) builds and releases stage by stage. Returns whether it succeeded. */
export async function deploy(args: DeployArgs, deps: DeployDeps): Promise<boolean> {
  const { log, root } = deps;
  const { projectId } = args;
  log(`${args.dryRun ? 'Dry run: nothing is built or deployed.\n' : ''}Deploying the Bookstore to Firebase project ${projectId}`);
  log('Checks:');
  // Every firebase-tools query errs instead of prompting (the release's own steps add it themselves).
  const cli: FirebaseCli = (cliArgs) => deps.cli([...cliArgs, NON_INTERACTIVE]);
  const { checks, createSite } = await runChecks(args, { ...deps, cli });
  for (const check of checks) formatCheck(check).forEach((line) => log(line));
  log('Plan:');
  planLines(args, root).forEach((line) => log(line));
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) {
    log(`\nRefusing to deploy: ${failed.length} check${failed.length > 1 ? 's' : ''} failed (the fix is under each).`);
    return false;
  }
  if (args.dryRun) {
    log('\nAll checks passed. Run again without --dry-run to deploy.');
    return true;
  }
  for (const step of buildSteps(readFunctionParams(root, projectId).params[PUBLIC_ORIGIN])) await deps.run(step);
  const traces = emulatorTraces(join(root, 'web', PROD_OUT_DIR));
  if (traces.length > 0) {
    log(`\nRefusing to deploy: the production build carries emulator settings:\n  ${traces.join('\n  ')}\nCheck ${'web/.env.production.local'} and the files Vite loads in production mode.`);
    return false;
  }
  writeFileSync(join(root, DEPLOY_CONFIG), deployConfig(readFileSync(join(root, 'firebase.json'), 'utf8'), assetNames(join(root, 'web', PROD_OUT_DIR))));

  const stopped = (stage: Stage, error: unknown): false => {
    const released = STAGES.slice(STAGES.indexOf(args.from), STAGES.indexOf(stage)).filter((s) => s !== 'index-wait');
    log(`\n${(error as Error).message}. Released before it: ${released.length > 0 ? released.join(', ') : 'nothing'}; not released: ${STAGES.slice(STAGES.indexOf(stage)).filter((s) => s !== 'index-wait').join(', ')}.`);
    log(`Fix the error above, then resume: npm run deploy -- --project ${projectId} --from ${stage}`);
    if (RESUME_NOTES[stage]) log(RESUME_NOTES[stage]);
    return false;
  };
  if (createSite) {
    try {
      await deps.run(createSiteStep(projectId));
    } catch (error) {
      log(`\n${(error as Error).message}. Nothing was released. Create the site in the console (https://console.firebase.google.com/project/${projectId}/hosting, Get started), then run the deploy again.`);
      return false;
    }
  }
  for (const stage of STAGES.slice(STAGES.indexOf(args.from))) {
    if (stage === 'database') {
      log('\n> Protect the Firestore database (point-in-time recovery, delete protection, a daily backup)');
      try {
        await protectDatabase({ projectId, cli, log, run: (label, cliArgs) => deps.run(firebaseStep(label, cliArgs)) });
      } catch (error) {
        return stopped(stage, error);
      }
      continue;
    }
    if (stage === 'index-wait') {
      if (args.skipIndexWait) continue;
      const specs = indexSpecs(readFileSync(join(root, 'firestore.indexes.json'), 'utf8'));
      log(`\n> Wait until the ${specs.length} composite indexes are READY (at most ${args.indexTimeoutMin} min)`);
      const result = await waitForIndexes({
        projectId,
        specs,
        list: () => deps.listIndexes(projectId),
        now: deps.now,
        sleep: deps.sleep,
        log,
        timeoutMs: args.indexTimeoutMin * 60_000,
        pollMs: INDEX_POLL_MS,
      });
      if (!result.ok) {
        log('');
        result.message.forEach((line) => log(line));
        return false;
      }
      continue;
    }
    try {
      if (stage === 'hosting' && args.from === 'hosting') await deps.run(pagesStep(projectId));
      await deps.run(releaseStep(stage, projectId));
    } catch (error) {
      return stopped(stage, error);
    }
  }
  log(`\nDeployed. Check it: npm run smoke -- https://${projectId}.web.app`);
  return true;
}
