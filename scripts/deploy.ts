import type { CliAnswer } from './lib/deploy-checks';
import { checkWebConfig } from './lib/deploy-checks';
import { deploy, emulatorTraces, formatCheck, parseDeployArgs, type Step } from './lib/deploy';
import { ROOT } from './lib/env';
import { listIndexes } from './lib/firestore-index-api';
import { run } from './lib/watched-process';

// npm run deploy -- --project <id> [--dry-run]   checks, production builds, the release in order
//   [--from <stage>] [--skip-index-wait]         (rules+indexes, index wait, functions, Hosting);
//   [--allow-delete <function>]                  needs no terminal: `... </dev/null` runs it unattended
// npm run build:web-prod                          Hosting's predeploy for a bare `firebase deploy`:
//                                                 checks the web config, builds production into web/dist

const FIREBASE = 'node_modules/firebase-tools/lib/bin/firebase.js';

const cli = (args: string[]): Promise<CliAnswer> => run(process.execPath, [FIREBASE, ...args], { capture: true });

async function runStep(step: Step): Promise<void> {
  console.log(`\n> ${step.label}`);
  const { code } = await run(step.cmd, step.args, step.env ? { env: { ...process.env, ...step.env } } : {});
  if (code !== 0) throw new Error(`${step.label} failed (exit ${code})`);
}

/** Hosting's predeploy: a bare `firebase deploy` ships web/dist, so build production there first. */
async function predeploy(): Promise<boolean> {
  const projectId = process.env.GCLOUD_PROJECT || undefined; // set by firebase deploy for its hooks
  const check = checkWebConfig(ROOT, projectId);
  if (!check.ok) {
    formatCheck(check).forEach((line) => console.error(line));
    console.error('Refusing to build the site for deployment. (npm run deploy also checks the secret, Firestore and Storage.)');
    return false;
  }
  await runStep({
    label: 'Build the web app in production mode (web/dist; npm start and npm test rebuild it for the emulators)',
    cmd: process.execPath,
    args: ['node_modules/vite/bin/vite.js', 'build', 'web', '--mode', 'production', '--emptyOutDir', '--logLevel', 'warn'],
  });
  const traces = emulatorTraces(`${ROOT}web/dist`);
  if (traces.length > 0) console.error(`The production build carries emulator settings:\n  ${traces.join('\n  ')}`);
  return traces.length === 0;
}

async function main(): Promise<boolean> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--predeploy') return predeploy();
  return deploy(parseDeployArgs(argv, ROOT), {
    root: ROOT,
    cli,
    run: runStep,
    log: (line) => console.log(line),
    listIndexes: (projectId) => listIndexes(projectId, ROOT),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
