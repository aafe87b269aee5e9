import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliArgs } from './env';
import { checkFirestore, checkSecret, checkStorage, checkWebConfig, isProjectId, type Check, type FirebaseCli } from './deploy-checks';

// `npm run deploy -- --project <id> [--dry-run]`: checks, production builds, one `firebase deploy`.
// Production output goes to web/dist-prod, which `npm start`/`npm test` (web/dist, emulator mode)
// never touch; Hosting is pointed at it through a generated firebase.deploy.json (firebase.json
// plus `public: web/dist-prod`), so the emulators keep reading firebase.json unchanged.

export const PROD_OUT_DIR = 'dist-prod'; // under web/
export const DEPLOY_CONFIG = 'firebase.deploy.json';
export const DEPLOY_ONLY = 'hosting,functions,firestore,storage';
/** Strings only an emulator build contains; a production bundle carrying one is refused. */
const EMULATOR_MARKERS = ['127.0.0.1:9099', 'localhost:9099', 'demo-api-key', 'demo-bookstore'];

export interface DeployArgs {
  projectId: string;
  dryRun: boolean;
}

export interface Step {
  label: string;
  cmd: string;
  args: string[];
}

export interface DeployDeps {
  root: string;
  /** The firebase CLI for queries: output captured, never shown (the secret's value passes here). */
  cli: FirebaseCli;
  /** Runs a build or deploy step with its output shown; throws when it fails. */
  run: (step: Step) => Promise<void>;
  log: (line: string) => void;
}

export const USAGE = 'Usage: npm run deploy -- --project <project-id> [--dry-run]   (or set a default with: npx firebase use --add)';

/** Reads --project (or .firebaserc's default, written by `firebase use --add`) and --dry-run. */
export function parseDeployArgs(argv: string[], root: string): DeployArgs {
  const options = { project: { type: 'string', short: 'P' }, 'dry-run': { type: 'boolean', default: false } } as const;
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
  return { projectId, dryRun };
}

export function deploySteps(projectId: string): Step[] {
  const node = process.execPath;
  // Web first: the function ships this build's shell and book frame (its asset names), not web/dist's.
  return [
    {
      label: `Build the web app in production mode (web/${PROD_OUT_DIR})`,
      cmd: node,
      args: ['node_modules/vite/bin/vite.js', 'build', 'web', '--mode', 'production', '--outDir', PROD_OUT_DIR, '--emptyOutDir', '--logLevel', 'warn'],
    },
    { label: `Build the function bundle (functions/lib, with web/${PROD_OUT_DIR}'s book-page shell)`, cmd: node, args: ['functions/build.mjs', '--web-dist', `web/${PROD_OUT_DIR}`] },
    {
      label: `Deploy ${DEPLOY_ONLY} to ${projectId}`,
      cmd: node,
      args: ['node_modules/firebase-tools/lib/bin/firebase.js', 'deploy', '--only', DEPLOY_ONLY, '--project', projectId, '--config', DEPLOY_CONFIG],
    },
  ];
}

export async function runChecks(projectId: string, deps: DeployDeps): Promise<Check[]> {
  const checks = [checkWebConfig(deps.root, projectId)];
  // The remote checks run in turn: the CLI is slow to start and they share its login.
  checks.push(await checkSecret(deps.cli, projectId));
  checks.push(await checkFirestore(deps.cli, projectId));
  checks.push(await checkStorage(deps.cli, projectId, 'firebase.json'));
  return checks;
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

/** firebase.json with Hosting serving the production build, and no predeploy builds (done already). */
export function deployConfig(firebaseJson: string): string {
  const config = JSON.parse(firebaseJson) as { hosting: Record<string, unknown>; functions?: Record<string, unknown>[] };
  config.hosting.public = `web/${PROD_OUT_DIR}`;
  delete config.hosting.predeploy;
  for (const fn of config.functions ?? []) delete fn.predeploy;
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Checks, then (unless a dry run) builds and deploys. Returns whether it succeeded. */
export async function deploy(args: DeployArgs, deps: DeployDeps): Promise<boolean> {
  const { log } = deps;
  const steps = deploySteps(args.projectId);
  log(`${args.dryRun ? 'Dry run: nothing is built or deployed.\n' : ''}Deploying the Bookstore to Firebase project ${args.projectId}`);
  log('Checks:');
  const checks = await runChecks(args.projectId, deps);
  for (const check of checks) formatCheck(check).forEach((line) => log(line));
  log('Plan:');
  steps.slice(0, 2).forEach((s, i) => log(`  ${i + 1}. ${s.label}`));
  log(`  3. Refuse the web build if it carries an emulator setting (${EMULATOR_MARKERS.join(', ')})`);
  log(`  4. Write ${DEPLOY_CONFIG}: firebase.json with Hosting's public folder web/${PROD_OUT_DIR}`);
  log(`  5. ${steps[2]!.label}: firebase deploy --only ${DEPLOY_ONLY} --project ${args.projectId} --config ${DEPLOY_CONFIG}`);
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) {
    log(`\nRefusing to deploy: ${failed.length} check${failed.length > 1 ? 's' : ''} failed (the fix is under each).`);
    return false;
  }
  if (args.dryRun) {
    log('\nAll checks passed. Run again without --dry-run to deploy.');
    return true;
  }
  await deps.run(steps[0]!);
  await deps.run(steps[1]!);
  const traces = emulatorTraces(join(deps.root, 'web', PROD_OUT_DIR));
  if (traces.length > 0) {
    log(`\nRefusing to deploy: the production build carries emulator settings:\n  ${traces.join('\n  ')}\nCheck ${'web/.env.production.local'} and the files Vite loads in production mode.`);
    return false;
  }
  writeFileSync(join(deps.root, DEPLOY_CONFIG), deployConfig(readFileSync(join(deps.root, 'firebase.json'), 'utf8')));
  await deps.run(steps[2]!);
  log(`\nDeployed. Check it: npm run smoke -- https://${args.projectId}.web.app`);
  return true;
}
