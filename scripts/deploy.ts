import { spawn } from 'node:child_process';
import type { CliAnswer } from './lib/deploy-checks';
import { checkWebConfig } from './lib/deploy-checks';
import { deploy, emulatorTraces, formatCheck, parseDeployArgs, type Step } from './lib/deploy';
import { ROOT } from './lib/env';

// npm run deploy -- --project <id> [--dry-run]   checks, production builds, firebase deploy
// npm run build:web-prod                          Hosting's predeploy for a bare `firebase deploy`:
//                                                 checks the web config, builds production into web/dist

const FIREBASE = 'node_modules/firebase-tools/lib/bin/firebase.js';

function cli(args: string[]): Promise<CliAnswer> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FIREBASE, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (error) => resolve({ code: 1, stdout, stderr: `${stderr}${error.message}` }));
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

function run(step: Step): Promise<void> {
  console.log(`\n> ${step.label}`);
  return new Promise((resolve, reject) => {
    const child = spawn(step.cmd, step.args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${step.label} failed (exit ${code})`))));
  });
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
  await run({
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
  return deploy(parseDeployArgs(argv, ROOT), { root: ROOT, cli, run, log: (line) => console.log(line) });
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
