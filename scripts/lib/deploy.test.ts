import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliAnswer } from './deploy-checks';
import { deploy, deployConfig, parseDeployArgs, type DeployDeps, type Step } from './deploy';

// The deploy command's refusals and its dry-run plan, with the firebase CLI's answers simulated
// (no Google here): what a logged-in CLI prints for a project with or without each piece.

const PROJECT = 'my-shop-123';
const GOOD_ENV = [
  '# from the console',
  'VITE_FIREBASE_API_KEY=AIzaSyA-real-looking-key',
  `VITE_FIREBASE_AUTH_DOMAIN=${PROJECT}.firebaseapp.com`,
  `VITE_FIREBASE_PROJECT_ID=${PROJECT}`,
  `VITE_FIREBASE_STORAGE_BUCKET=${PROJECT}.firebasestorage.app`,
  'VITE_FIREBASE_APP_ID="1:123:web:abc"',
].join('\n');
const DEMO_ENV = readFileSync(new URL('../../web/.env.emulator', import.meta.url), 'utf8');

const ok = (stdout = ''): CliAnswer => ({ code: 0, stdout, stderr: '' });
const fail = (stderr: string): CliAnswer => ({ code: 1, stdout: '', stderr });
const SECRET_META = ok(JSON.stringify({ status: 'success', result: { secrets: [{ versionId: '1', state: 'ENABLED' }] } }));

/** A project with everything in place; each test takes one piece away. */
function cliFor(answers: Partial<Record<'get' | 'access' | 'firestore' | 'storage', CliAnswer>> = {}) {
  const calls: string[][] = [];
  const cli = async (args: string[]): Promise<CliAnswer> => {
    calls.push(args);
    if (args[0] === 'functions:secrets:get') return answers.get ?? SECRET_META;
    if (args[0] === 'functions:secrets:access') return answers.access ?? ok(`${'ab'.repeat(32)}\n`);
    if (args[0] === 'firestore:databases:get') return answers.firestore ?? ok('{"name":"projects/x/databases/(default)"}');
    if (args[0] === 'deploy' && args.includes('--dry-run')) return answers.storage ?? ok('Dry run complete!');
    throw new Error(`unexpected firebase call: ${args.join(' ')}`);
  };
  return { cli, calls };
}

let root: string;
let lines: string[];
let ran: Step[];

function deps(cli: DeployDeps['cli']): DeployDeps {
  return { root, cli, log: (line) => lines.push(line), run: async (step) => void ran.push(step) };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deploy-test-'));
  mkdirSync(join(root, 'web'));
  lines = [];
  ran = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const output = () => lines.join('\n');

describe('npm run deploy: refusals', () => {
  it('refuses without web/.env.production.local, naming the file to copy', async () => {
    const { cli } = cliFor();
    expect(await deploy({ projectId: PROJECT, dryRun: false }, deps(cli))).toBe(false);
    expect(output()).toMatch(/FAIL Web app config.*does not exist/);
    expect(output()).toContain('fix: Copy web/.env.production.example to web/.env.production.local');
    expect(output()).toMatch(/Refusing to deploy: 1 check failed/);
    expect(ran).toEqual([]);
  });

  it('refuses the demo (emulator) config', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), DEMO_ENV);
    const { cli } = cliFor();
    expect(await deploy({ projectId: PROJECT, dryRun: false }, deps(cli))).toBe(false);
    expect(output()).toContain('VITE_FIREBASE_API_KEY is the demo key "demo-api-key"');
    expect(output()).toContain('VITE_FIREBASE_PROJECT_ID is the demo project "demo-bookstore"');
    expect(output()).toContain('VITE_AUTH_EMULATOR_URL is set');
    expect(ran).toEqual([]);
  });

  it("refuses another project's config", async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV.replaceAll(PROJECT, 'other-shop'));
    expect(await deploy({ projectId: PROJECT, dryRun: false }, deps(cliFor().cli))).toBe(false);
    expect(output()).toContain(`VITE_FIREBASE_PROJECT_ID is "other-shop" but you deploy to "${PROJECT}"`);
  });

  it('refuses when ADMIN_JWT_SECRET is not in Secret Manager, with the command that sets it', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const { cli, calls } = cliFor({ get: fail(`Error: Failed to make request to https://secretmanager.googleapis.com/v1/projects/${PROJECT}/secrets/ADMIN_JWT_SECRET/versions: NOT_FOUND (404)`) });
    expect(await deploy({ projectId: PROJECT, dryRun: false }, deps(cli))).toBe(false);
    expect(output()).toContain('FAIL Secret ADMIN_JWT_SECRET (Secret Manager): not set');
    expect(output()).toContain(`fix: openssl rand -hex 32 | npx firebase functions:secrets:set ADMIN_JWT_SECRET --project ${PROJECT} --data-file=-`);
    expect(calls.some((c) => c[0] === 'functions:secrets:access')).toBe(false);
    expect(ran).toEqual([]);
  });

  it('refuses a secret shorter than 32 bytes without printing it', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    expect(await deploy({ projectId: PROJECT, dryRun: false }, deps(cliFor({ access: ok('hunter2\n') }).cli))).toBe(false);
    expect(output()).toContain('only 7 bytes long (at least 32 needed)');
    expect(output()).not.toContain('hunter2');
  });

  it('refuses when Firestore or Storage is not set up', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const { cli } = cliFor({
      firestore: fail('Error: Request to https://firestore.googleapis.com/v1/projects/x/databases/(default) had HTTP Error: 404, The database (default) does not exist for project x'),
      storage: fail(`Error: Firebase Storage has not been set up on project '${PROJECT}'. Go to https://console.firebase.google.com/project/${PROJECT}/storage and click 'Get Started' to set up Firebase Storage.`),
    });
    expect(await deploy({ projectId: PROJECT, dryRun: false }, deps(cli))).toBe(false);
    expect(output()).toContain('FAIL Firestore (default) database: not created');
    expect(output()).toContain('FAIL Cloud Storage default bucket: not set up');
    expect(output()).toMatch(/Refusing to deploy: 2 checks failed/);
  });

  it('says to log in when the CLI is not logged in, instead of guessing the state', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const notLoggedIn: CliAnswer = { code: 1, stdout: '{\n  "status": "error",\n  "error": "Failed to authenticate, have you run firebase login?"\n}', stderr: '' };
    const warned: CliAnswer = { code: 1, stdout: '', stderr: '⚠  Unable to fetch the CLI MOTD and remote config.\n\nError: Failed to authenticate, have you run firebase login?' };
    const { cli } = cliFor({ get: notLoggedIn, firestore: warned, storage: warned });
    expect(await deploy({ projectId: PROJECT, dryRun: true }, deps(cli))).toBe(false);
    expect(output()).toContain('FAIL Secret ADMIN_JWT_SECRET (Secret Manager): could not be checked: Failed to authenticate, have you run firebase login?');
    expect(output()).toContain('FAIL Firestore (default) database: could not be checked: Failed to authenticate, have you run firebase login?');
    expect(lines.filter((l) => l.includes('fix: npx firebase login, then run the deploy again'))).toHaveLength(3);
  });
});

describe('npm run deploy -- --dry-run', () => {
  it('prints the checks and the plan, and builds or deploys nothing', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const { cli, calls } = cliFor();
    expect(await deploy({ projectId: PROJECT, dryRun: true }, deps(cli))).toBe(true);
    expect(ran).toEqual([]);
    expect(calls.every((c) => c[0] !== 'deploy' || c.includes('--dry-run'))).toBe(true);
    expect(lines).toEqual([
      `Dry run: nothing is built or deployed.\nDeploying the Bookstore to Firebase project ${PROJECT}`,
      'Checks:',
      `  ok   Web app config (web/.env.production.local): project ${PROJECT}, app 1:123:web:abc`,
      '  ok   Secret ADMIN_JWT_SECRET (Secret Manager): set, 64 bytes (value not shown)',
      '  ok   Firestore (default) database: exists',
      '  ok   Cloud Storage default bucket: set up',
      'Plan:',
      '  1. Build the web app in production mode (web/dist-prod)',
      "  2. Build the function bundle (functions/lib, with web/dist-prod's book-page shell)",
      '  3. Refuse the web build if it carries an emulator setting (127.0.0.1:9099, localhost:9099, demo-api-key, demo-bookstore)',
      '  4. Write firebase.deploy.json: firebase.json with Hosting\'s public folder web/dist-prod',
      `  5. Deploy hosting,functions,firestore,storage to ${PROJECT}: firebase deploy --only hosting,functions,firestore,storage --project ${PROJECT} --config firebase.deploy.json`,
      '\nAll checks passed. Run again without --dry-run to deploy.',
    ]);
  });

  it('deploys when every check passes: builds, writes the config, runs firebase deploy', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    writeFileSync(join(root, 'firebase.json'), JSON.stringify({ hosting: { public: 'web/dist', predeploy: ['x'] }, functions: [{ source: 'functions', predeploy: ['y'] }] }));
    mkdirSync(join(root, 'web/dist-prod/assets'), { recursive: true });
    writeFileSync(join(root, 'web/dist-prod/assets/index.js'), 'console.log("AIzaSyA-real-looking-key")');
    expect(await deploy({ projectId: PROJECT, dryRun: false }, deps(cliFor().cli))).toBe(true);
    expect(ran.map((s) => s.args.slice(0, 2).join(' '))).toEqual(['node_modules/vite/bin/vite.js build', 'functions/build.mjs --web-dist', 'node_modules/firebase-tools/lib/bin/firebase.js deploy']);
    expect(ran[1]!.args).toEqual(['functions/build.mjs', '--web-dist', 'web/dist-prod']);
    expect(ran[2]!.args).toEqual(expect.arrayContaining(['--only', 'hosting,functions,firestore,storage', '--project', PROJECT, '--config', 'firebase.deploy.json']));
    const written = JSON.parse(readFileSync(join(root, 'firebase.deploy.json'), 'utf8'));
    expect(written).toEqual({ hosting: { public: 'web/dist-prod' }, functions: [{ source: 'functions' }] });
  });

  it('refuses a production build that still talks to the Auth emulator', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    writeFileSync(join(root, 'firebase.json'), '{"hosting":{}}');
    mkdirSync(join(root, 'web/dist-prod/assets'), { recursive: true });
    writeFileSync(join(root, 'web/dist-prod/assets/index.js'), 'connectAuthEmulator(a,"http://127.0.0.1:9099")');
    expect(await deploy({ projectId: PROJECT, dryRun: false }, deps(cliFor().cli))).toBe(false);
    expect(output()).toContain('assets/index.js contains "127.0.0.1:9099"');
    expect(ran.map((s) => s.label)).not.toContain(`Deploy hosting,functions,firestore,storage to ${PROJECT}`);
  });
});

describe('deploy arguments and config', () => {
  it('takes --project, or the default from .firebaserc, and refuses demo or malformed ids', () => {
    expect(parseDeployArgs(['--project', PROJECT, '--dry-run'], root)).toEqual({ projectId: PROJECT, dryRun: true });
    expect(() => parseDeployArgs([], root)).toThrow(/No project given.*firebase use --add/);
    writeFileSync(join(root, '.firebaserc'), JSON.stringify({ projects: { default: PROJECT } }));
    expect(parseDeployArgs([], root)).toEqual({ projectId: PROJECT, dryRun: false });
    expect(() => parseDeployArgs(['--project', 'demo-bookstore'], root)).toThrow(/demo project/);
    expect(() => parseDeployArgs(['--project', 'Bad_Id'], root)).toThrow(/not a Firebase project id/);
  });

  it("keeps the repository's firebase.json as is, apart from the public folder and predeploy builds", () => {
    const real = readFileSync(new URL('../../firebase.json', import.meta.url), 'utf8');
    const generated = JSON.parse(deployConfig(real));
    const original = JSON.parse(real);
    expect(generated.hosting.public).toBe('web/dist-prod');
    expect(generated.hosting.headers).toEqual(original.hosting.headers);
    expect(generated.hosting.rewrites).toEqual(original.hosting.rewrites);
    expect(generated.firestore).toEqual(original.firestore);
    expect(original.hosting.public).toBe('web/dist'); // what the emulators serve
  });
});
