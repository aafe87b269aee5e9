import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { smtpUriProblem, type CliAnswer } from './deploy-checks';
import { codeFunctions } from './function-exports';
import { deploy, deployConfig, parseDeployArgs, type DeployArgs, type DeployDeps, type Step } from './deploy';
import type { ApiIndex } from './index-wait';

// The deploy command's refusals, its dry-run plan and its release order, with the firebase CLI's
// answers and the index list simulated (no Google here): what a logged-in CLI prints for a project
// with or without each piece. Each test runs in a copy of the repository's firebase.json,
// firestore.indexes.json, plus a filled-in per-project functions/.env.<project> (the mail sender).

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
const GOOD_MAIL_ENV = 'MAIL_FROM=Bookstore <orders@my-shop.com>\nPUBLIC_ORIGIN=https://shop.my-shop.com\nNODE_OPTIONS=--max-old-space-size-percentage=75';
const SMTP_URI = 'smtps://apikey:SG.very-secret-key@smtp.sendgrid.net:465';
const SITES = ok(JSON.stringify({ status: 'success', result: { sites: [{ name: `projects/123/sites/${PROJECT}`, defaultUrl: `https://${PROJECT}.web.app`, type: 'DEFAULT_SITE' }] } }));
/** The functions as deployed by the last release: exactly what functions/src/index.ts exports. */
const DEPLOYED = ok(JSON.stringify({ status: 'success', result: codeFunctions(fileURLToPath(new URL('../../', import.meta.url))).map((f) => ({ id: f.name, region: f.region, platform: 'gcfv2', codebase: 'default' })) }));
const DATABASE = ok(JSON.stringify({ status: 'success', result: { name: `projects/${PROJECT}/databases/(default)`, locationId: 'nam5', type: 'FIRESTORE_NATIVE' } }));

/** A project with everything in place; each test takes one piece away. */
function cliFor(answers: Partial<Record<'get' | 'access' | 'firestore' | 'storage' | 'smtpSecret' | 'smtpValue' | 'stripeKey' | 'stripeHook' | 'schedules' | 'sites' | 'functions', CliAnswer>> = {}) {
  const calls: string[][] = [];
  const cli = async (given: string[]): Promise<CliAnswer> => {
    calls.push(given);
    // Every query errs instead of prompting (issue 58); the answers below do not depend on it.
    if (given.at(-1) !== '--non-interactive') throw new Error(`a firebase query without --non-interactive: ${given.join(' ')}`);
    const args = given.slice(0, -1);
    if (args[0] === 'functions:secrets:get' && args[1] === 'SMTP_URI') return answers.smtpSecret ?? SECRET_META;
    if (args[0] === 'functions:secrets:access' && args[1] === 'SMTP_URI') return answers.smtpValue ?? ok(`${SMTP_URI}\n`);
    if (args[0] === 'functions:secrets:get') return answers.get ?? SECRET_META;
    // Card payments off by default (issue 35); the Stripe tests give values.
    if (args[0] === 'functions:secrets:access' && args[1] === 'STRIPE_SECRET_KEY') return answers.stripeKey ?? ok('off\n');
    if (args[0] === 'functions:secrets:access' && args[1] === 'STRIPE_WEBHOOK_SECRET') return answers.stripeHook ?? ok('off\n');
    if (args[0] === 'functions:secrets:access') return answers.access ?? ok(`${'ab'.repeat(32)}\n`);
    if (args[0] === 'firestore:databases:get') return answers.firestore ?? DATABASE;
    if (args[0] === 'deploy' && args.includes('--dry-run')) return answers.storage ?? ok('Dry run complete!');
    if (args[0] === 'firestore:backups:schedules:list') return answers.schedules ?? ok(JSON.stringify({ status: 'success', result: [] }));
    if (args[0] === 'hosting:sites:list') return answers.sites ?? SITES;
    if (args[0] === 'functions:list') return answers.functions ?? DEPLOYED;
    throw new Error(`unexpected firebase call: ${args.join(' ')}`);
  };
  return { cli, calls };
}

let root: string;
let lines: string[];
let ran: Step[];
let clock: number;

/** Every declared index READY, as the Admin API would list it. */
function allReady(): ApiIndex[] {
  const { indexes } = JSON.parse(readFileSync(join(root, 'firestore.indexes.json'), 'utf8')) as { indexes: { collectionGroup: string; queryScope: string; fields: { fieldPath: string; order?: string }[] }[] };
  return indexes.map((spec, i) => ({
    name: `projects/${PROJECT}/databases/(default)/collectionGroups/${spec.collectionGroup}/indexes/ID${i}`,
    queryScope: spec.queryScope,
    // Firestore appends `__name__` in the last field's direction, unless the spec names it itself.
    fields: spec.fields.at(-1)?.fieldPath === '__name__' ? spec.fields : [...spec.fields, { fieldPath: '__name__', order: spec.fields.at(-1)?.order ?? 'ASCENDING' }],
    state: 'READY',
  }));
}

function deps(cli: DeployDeps['cli'], listIndexes: DeployDeps['listIndexes'] = async () => allReady()): DeployDeps {
  return {
    root,
    cli,
    log: (line) => lines.push(line),
    // A release step is recorded; the index wait's polls are recorded as a step too, to show the order.
    run: async (step) => void ran.push(step),
    listIndexes: async (projectId) => {
      ran.push({ label: 'list indexes', cmd: 'GET', args: [projectId] });
      return listIndexes(projectId);
    },
    now: () => clock,
    sleep: async (ms) => void (clock += ms),
  };
}

const args = (overrides: Partial<DeployArgs> = {}): DeployArgs => ({ projectId: PROJECT, dryRun: false, from: 'database', skipIndexWait: false, indexTimeoutMin: 20, allowDelete: [], ...overrides });
const REPO = new URL('../../', import.meta.url);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'deploy-test-'));
  mkdirSync(join(root, 'web'));
  mkdirSync(join(root, 'functions/src'), { recursive: true });
  for (const file of ['firebase.json', 'firestore.indexes.json', 'functions/src/index.ts', 'functions/src/config.ts']) copyFileSync(new URL(file, REPO), join(root, file));
  writeFileSync(join(root, `functions/.env.${PROJECT}`), GOOD_MAIL_ENV);
  lines = [];
  ran = [];
  clock = 0;
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const output = () => lines.join('\n');

describe('npm run deploy: refusals', () => {
  it('refuses without web/.env.production.local, naming the file to copy', async () => {
    const { cli } = cliFor();
    expect(await deploy(args(), deps(cli))).toBe(false);
    expect(output()).toMatch(/FAIL Web app config.*does not exist/);
    expect(output()).toContain('fix: Copy web/.env.production.example to web/.env.production.local');
    expect(output()).toMatch(/Refusing to deploy: 1 check failed/);
    expect(ran).toEqual([]);
  });

  it('refuses the demo (emulator) config', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), DEMO_ENV);
    const { cli } = cliFor();
    expect(await deploy(args(), deps(cli))).toBe(false);
    expect(output()).toContain('VITE_FIREBASE_API_KEY is the demo key "demo-api-key"');
    expect(output()).toContain('VITE_FIREBASE_PROJECT_ID is the demo project "demo-bookstore"');
    expect(output()).toContain('VITE_AUTH_EMULATOR_URL is set');
    expect(ran).toEqual([]);
  });

  it("refuses another project's config", async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV.replaceAll(PROJECT, 'other-shop'));
    expect(await deploy(args(), deps(cliFor().cli))).toBe(false);
    expect(output()).toContain(`VITE_FIREBASE_PROJECT_ID is "other-shop" but you deploy to "${PROJECT}"`);
  });

  it('refuses when ADMIN_JWT_SECRET is not in Secret Manager, with the command that sets it', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const { cli, calls } = cliFor({ get: fail(`Error: Failed to make request to https://secretmanager.googleapis.com/v1/projects/${PROJECT}/secrets/ADMIN_JWT_SECRET/versions: NOT_FOUND (404)`) });
    expect(await deploy(args(), deps(cli))).toBe(false);
    expect(output()).toContain('FAIL Secret ADMIN_JWT_SECRET (Secret Manager): not set');
    expect(output()).toContain(`fix: openssl rand -hex 32 | npx firebase functions:secrets:set ADMIN_JWT_SECRET --project ${PROJECT} --data-file=-`);
    expect(calls.some((c) => c[0] === 'functions:secrets:access' && c[1] === 'ADMIN_JWT_SECRET')).toBe(false);
    expect(ran).toEqual([]);
  });

  it('checks the Stripe secrets: both off or both Stripe values (issue 35), never printing them', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const key = 'sk_live_' + 'k'.repeat(24);
    const hook = 'whsec_' + 'h'.repeat(24);
    const cases: [Partial<Record<'stripeKey' | 'stripeHook', CliAnswer>>, RegExp][] = [
      [{ stripeKey: fail('Error: NOT_FOUND (404)') }, /FAIL Secrets STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET.*STRIPE_SECRET_KEY is not set/],
      [{ stripeKey: ok(`${key}\n`) }, /FAIL Secrets STRIPE.*one is off and the other is not/],
      [{ stripeKey: ok('pk_live_abcdefghijkl\n'), stripeHook: ok(`${hook}\n`) }, /FAIL Secrets STRIPE.*STRIPE_SECRET_KEY is not in Stripe's shape/],
    ];
    for (const [answers, expected] of cases) {
      lines = [];
      expect(await deploy(args({ dryRun: true }), deps(cliFor(answers).cli))).toBe(false);
      expect(output()).toMatch(expected);
      expect(output()).toContain('functions:secrets:set STRIPE_SECRET_KEY');
    }
    lines = [];
    await deploy(args({ dryRun: true }), deps(cliFor({ stripeKey: ok(`${key}\n`), stripeHook: ok(`${hook}\n`) }).cli));
    expect(output()).toMatch(/ok {3}Secrets STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET.*card payments on, Stripe live mode/);
    expect(output()).not.toContain(key);
    lines = [];
    await deploy(args({ dryRun: true }), deps(cliFor().cli));
    expect(output()).toMatch(/ok {3}Secrets STRIPE.*both off: checkout offers cash only/);
  });

  it('refuses a secret shorter than 32 bytes without printing it', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    expect(await deploy(args(), deps(cliFor({ access: ok('hunter2\n') }).cli))).toBe(false);
    expect(output()).toContain('only 7 bytes long (at least 32 needed)');
    expect(output()).not.toContain('hunter2');
  });

  it('refuses when Firestore or Storage is not set up', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const { cli } = cliFor({
      firestore: fail('Error: Request to https://firestore.googleapis.com/v1/projects/x/databases/(default) had HTTP Error: 404, The database (default) does not exist for project x'),
      storage: fail(`Error: Firebase Storage has not been set up on project '${PROJECT}'. Go to https://console.firebase.google.com/project/${PROJECT}/storage and click 'Get Started' to set up Firebase Storage.`),
    });
    expect(await deploy(args(), deps(cli))).toBe(false);
    expect(output()).toContain('FAIL Firestore (default) database: not created');
    expect(output()).toContain('FAIL Cloud Storage default bucket: not set up');
    expect(output()).toMatch(/Refusing to deploy: 2 checks failed/);
  });

  it('says to log in when the CLI is not logged in, instead of guessing the state', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const notLoggedIn: CliAnswer = { code: 1, stdout: '{\n  "status": "error",\n  "error": "Failed to authenticate, have you run firebase login?"\n}', stderr: '' };
    const warned: CliAnswer = { code: 1, stdout: '', stderr: '⚠  Unable to fetch the CLI MOTD and remote config.\n\nError: Failed to authenticate, have you run firebase login?' };
    const { cli } = cliFor({ get: notLoggedIn, firestore: warned, storage: warned });
    expect(await deploy(args({ dryRun: true }), deps(cli))).toBe(false);
    expect(output()).toContain('FAIL Secret ADMIN_JWT_SECRET (Secret Manager): could not be checked: Failed to authenticate, have you run firebase login?');
    expect(output()).toContain('FAIL Firestore (default) database: could not be checked: Failed to authenticate, have you run firebase login?');
    expect(lines.filter((l) => l.includes('fix: npx firebase login, then run the deploy again'))).toHaveLength(3);
  });
});

describe("npm run deploy: each function's heap limit (NODE_OPTIONS, issue 58)", () => {
  it('refuses without NODE_OPTIONS for the project, naming the line to add', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    writeFileSync(join(root, `functions/.env.${PROJECT}`), 'MAIL_FROM=Bookstore <orders@my-shop.com>');
    expect(await deploy(args({ dryRun: true }), deps(cliFor().cli))).toBe(false);
    expect(output()).toContain(`FAIL Heap limit (NODE_OPTIONS in functions/.env*): NODE_OPTIONS is not set in functions/.env.${PROJECT}`);
    expect(output()).toContain(`fix: echo 'NODE_OPTIONS=--max-old-space-size-percentage=75' >> functions/.env.${PROJECT}`);
  });
});

describe("npm run deploy: the shop's mail (sendMail's SMTP_URI secret and MAIL_FROM)", () => {
  beforeEach(() => writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV));

  it('refuses without MAIL_FROM for the project, naming the file and line to add', async () => {
    rmSync(join(root, `functions/.env.${PROJECT}`));
    expect(await deploy(args({ dryRun: true }), deps(cliFor().cli))).toBe(false);
    expect(output()).toContain(`FAIL Mail sender (MAIL_FROM in functions/.env*): MAIL_FROM is not set (no functions/.env.${PROJECT})`);
    expect(output()).toContain(`fix: Set it in functions/.env.${PROJECT} (committed; no secret in it): echo 'MAIL_FROM=Bookstore <orders@your-domain.com>' >> functions/.env.${PROJECT}`);
  });

  it("refuses the local sender, an example's and something that is not an address", async () => {
    for (const [from, said] of [
      ['Bookstore <orders@bookstore.localhost>', 'MAIL_FROM is the local address "Bookstore <orders@bookstore.localhost>"'],
      ['Bookstore <orders@example.com>', 'MAIL_FROM is the example "Bookstore <orders@example.com>"'],
      ['Bookstore', 'MAIL_FROM "Bookstore" is not an address'],
    ]) {
      lines = [];
      writeFileSync(join(root, `functions/.env.${PROJECT}`), `MAIL_FROM=${from}`);
      expect(await deploy(args({ dryRun: true }), deps(cliFor().cli))).toBe(false);
      expect(output()).toContain(said);
    }
  });

  it('reads MAIL_FROM from a `firebase use` alias file too, as firebase deploy does', async () => {
    rmSync(join(root, `functions/.env.${PROJECT}`));
    writeFileSync(join(root, '.firebaserc'), JSON.stringify({ projects: { production: PROJECT } }));
    writeFileSync(join(root, 'functions/.env.production'), GOOD_MAIL_ENV);
    expect(await deploy(args({ dryRun: true }), deps(cliFor().cli))).toBe(true);
    expect(output()).toContain('ok   Mail sender (MAIL_FROM in functions/.env*): Bookstore <orders@my-shop.com> (functions/.env.production)');
  });

  it('refuses when the SMTP_URI secret does not exist, with the command that sets it without echoing it', async () => {
    const { cli, calls } = cliFor({ smtpSecret: fail(`Error: Failed to make request to https://secretmanager.googleapis.com/v1/projects/${PROJECT}/secrets/SMTP_URI/versions: NOT_FOUND (404)`) });
    expect(await deploy(args(), deps(cli))).toBe(false);
    expect(calls).toContainEqual(['functions:secrets:get', 'SMTP_URI', '--project', PROJECT, '--json', '--non-interactive']);
    expect(output()).toContain("FAIL Secret SMTP_URI (Secret Manager, the sendMail function's SMTP server): not set");
    expect(output()).toContain(`fix: read -rs U && printf '%s' "$U" | npx firebase functions:secrets:set SMTP_URI --project ${PROJECT} --data-file=-`);
    expect(ran).toEqual([]);
  });

  it('refuses a secret without an enabled version', async () => {
    const disabled = ok(JSON.stringify({ status: 'success', result: { secrets: [{ versionId: '1', state: 'DISABLED' }] } }));
    expect(await deploy(args({ dryRun: true }), deps(cliFor({ smtpSecret: disabled }).cli))).toBe(false);
    expect(output()).toContain("FAIL Secret SMTP_URI (Secret Manager, the sendMail function's SMTP server): no enabled version");
  });

  it('refuses an SMTP_URI that cannot send from Cloud Run, never printing its password', async () => {
    for (const [uri, said] of [
      ['smtp://apikey:pw-one@smtp.sendgrid.net:25', 'smtp://apikey:***@smtp.sendgrid.net:25: it uses port 25, which Google Cloud blocks'],
      ['smtps://user:pw-two@smtp.example.com:465', 'its host smtp.example.com is an example'],
      ['smtp://127.0.0.1:1025', 'its host 127.0.0.1 is this machine, not a mail server'],
      ['https://user:pw-three@mail.my-shop.com', 'it starts with https:// (smtps:// or smtp:// expected)'],
      ['smtps://apikey@smtp.sendgrid.net:465', 'it has a user name but no password'],
      ['not a uri pw-four', 'it is not a URL'],
      ['smtp://apikey:pw-five@smtp.sendgrid.net:587', 'smtp://apikey:***@smtp.sendgrid.net:587: it sends without TLS'],
      ['smtp://apikey:pw-six@smtp.sendgrid.net:587?requireTLS=false', 'it sends without TLS'],
    ]) {
      lines = [];
      expect(await deploy(args({ dryRun: true }), deps(cliFor({ smtpValue: ok(`${uri}\n`) }).cli))).toBe(false);
      expect(output()).toContain(said);
      expect(output()).not.toMatch(/pw-(one|two|three|four|five|six)/);
    }
    // TLS from the start, or STARTTLS required: both accepted.
    expect(smtpUriProblem('smtps://apikey:pw@smtp.sendgrid.net:465')).toBeNull();
    expect(smtpUriProblem('smtp://apikey:pw@smtp.sendgrid.net:587?requireTLS=true')).toBeNull();
  });
});

describe('npm run deploy -- --dry-run', () => {
  it('prints the checks and the plan: rules and indexes, the index wait, functions, Hosting last', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const { cli, calls } = cliFor();
    expect(await deploy(args({ dryRun: true }), deps(cli))).toBe(true);
    expect(ran).toEqual([]);
    expect(calls.every((c) => c[0] !== 'deploy' || c.includes('--dry-run'))).toBe(true);
    const indexes = JSON.parse(readFileSync(new URL('firestore.indexes.json', REPO), 'utf8')).indexes.length;
    const firebase = (only: string) => `firebase deploy --only ${only} --project ${PROJECT} --config firebase.deploy.json --non-interactive`;
    expect(lines).toEqual([
      `Dry run: nothing is built or deployed.\nDeploying the Bookstore to Firebase project ${PROJECT}`,
      'Checks:',
      `  ok   Web app config (web/.env.production.local): project ${PROJECT}, app 1:123:web:abc`,
      '  ok   Secret ADMIN_JWT_SECRET (Secret Manager): set, 64 bytes (value not shown)',
      '  ok   Secrets STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET (Secret Manager, card payments): both off: checkout offers cash only (values not shown)',
      '  ok   Firestore (default) database: exists (nam5); point-in-time recovery off, delete protection off (the release turns both on)',
      '  ok   Cloud Storage default bucket: set up',
      `  ok   Mail sender (MAIL_FROM in functions/.env*): Bookstore <orders@my-shop.com> (functions/.env.${PROJECT})`,
      `  ok   Heap limit (NODE_OPTIONS in functions/.env*): --max-old-space-size-percentage=75 (functions/.env.${PROJECT})`,
      "  ok   Secret SMTP_URI (Secret Manager, the sendMail function's SMTP server): set, smtps://apikey:***@smtp.sendgrid.net:465 (password not shown)",
      `  ok   Shop address (PUBLIC_ORIGIN in functions/.env*): https://shop.my-shop.com (functions/.env.${PROJECT}); a domain of your own: it must be connected in Hosting and listed in Authentication > Settings > Authorized domains`,
      `  ok   Hosting site: default site ${PROJECT} (https://${PROJECT}.web.app)`,
      `  ok   Functions this release would delete: none (${codeFunctions(fileURLToPath(REPO)).length} deployed, every one still in functions/src/index.ts)`,
      'Plan:',
      '  1. Build the web app in production mode (web/dist-prod)',
      "  2. Build the function bundle (functions/lib, with web/dist-prod's book-page shell)",
      '  3. Refuse the web build if it carries an emulator setting (127.0.0.1:9099, localhost:9099, demo-api-key, demo-bookstore)',
      "  4. Write firebase.deploy.json: firebase.json with Hosting's public folder web/dist-prod, its immutable /assets/ header rule narrowed to the files that build ships (a 404 for any other name is never cached)",
      `  5. If the project has no Hosting site, create its default one first: firebase hosting:sites:create ${PROJECT} --project ${PROJECT} --non-interactive`,
      `  6. Protect the Firestore database: point-in-time recovery (7 days) and delete protection on: firebase firestore:databases:update (default) --point-in-time-recovery ENABLED --delete-protection ENABLED --project ${PROJECT} --non-interactive; a daily backup kept 14d, unless the database has a daily schedule: firebase firestore:backups:schedules:create --database (default) --recurrence DAILY --retention 14d --project ${PROJECT} --non-interactive`,
      `  7. Deploy the Firestore rules and indexes, and the Storage rules: ${firebase('firestore:rules,firestore:indexes,storage')}`,
      `  8. Wait until the ${indexes} composite indexes of firestore.indexes.json are READY (Firestore Admin API index list, every 15 s, at most 20 min; on a timeout it stops and prints the command to resume)`,
      `  9. Deploy the functions (until Hosting has the new build, \`pages\` serves the /assets/ files its pages name): ${firebase('functions')} --force (--force answers the container-image cleanup question: 1 day)`,
      `  10. Deploy Hosting, last (the site goes live on the code, indexes and rules above): ${firebase('hosting')}`,
      '\nAll checks passed. Run again without --dry-run to deploy.',
    ]);
  });

  it('marks the stages a resumed run skips', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    expect(await deploy(args({ dryRun: true, from: 'functions' }), deps(cliFor().cli))).toBe(true);
    const skipped = lines.filter((l) => l.includes('(skipped, --from functions)')).map((l) => /^ {2}(\d+)\. \(skipped, --from functions\) (\w+)/.exec(l)!.slice(1).join(' '));
    expect(skipped).toEqual(['6 Protect', '7 Deploy', '8 Wait']);
    expect(lines.find((l) => l.startsWith('  9.'))).toMatch(/^ {2}9\. Deploy the functions \(/);
  });
});

describe('npm run deploy: the release', () => {
  const firebaseOnly = (steps: Step[]) =>
    steps.map((s) => (s.cmd === 'GET' ? 'list indexes' : s.args.includes('--only') ? `deploy ${s.args[s.args.indexOf('--only') + 1]}` : s.args[0]!.endsWith('firebase.js') ? s.args[1] : s.args[0]));
  const PROTECT = ['firestore:databases:update', 'firestore:backups:schedules:create'];

  beforeEach(() => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    mkdirSync(join(root, 'web/dist-prod/assets'), { recursive: true });
    writeFileSync(join(root, 'web/dist-prod/assets/index.js'), 'console.log("AIzaSyA-real-looking-key")');
  });

  it('builds, then protects the database, releases rules and indexes, waits for the indexes, then the functions and Hosting last', async () => {
    expect(await deploy(args(), deps(cliFor().cli))).toBe(true);
    expect(firebaseOnly(ran)).toEqual([
      'node_modules/vite/bin/vite.js',
      'functions/build.mjs',
      ...PROTECT,
      'deploy firestore:rules,firestore:indexes,storage',
      'list indexes',
      'deploy functions',
      'deploy hosting',
    ]);
    expect(ran[1]!.args).toEqual(['functions/build.mjs', '--web-dist', 'web/dist-prod']);
    for (const step of ran.filter((s) => s.args.includes('deploy'))) expect(step.args).toEqual(expect.arrayContaining(['--project', PROJECT, '--config', 'firebase.deploy.json']));
    const written = JSON.parse(readFileSync(join(root, 'firebase.deploy.json'), 'utf8'));
    expect(written.hosting.public).toBe('web/dist-prod');
    expect(written.hosting.predeploy).toBeUndefined();
    expect(written.extensions).toBeUndefined(); // no Firebase Extension is deployed (decision 037)
    expect(output()).toContain(`Deployed. Check it: npm run smoke -- https://${PROJECT}.web.app`);
  });

  it('releases no code while an index is still building: stops at the timeout with the command to resume', async () => {
    const building = () => allReady().map((index, i) => (i === 0 ? { ...index, state: 'CREATING' } : index));
    expect(await deploy(args({ indexTimeoutMin: 1 }), deps(cliFor().cli, async () => building()))).toBe(false);
    expect(firebaseOnly(ran).filter((s) => s !== 'list indexes')).toEqual(['node_modules/vite/bin/vite.js', 'functions/build.mjs', ...PROTECT, 'deploy firestore:rules,firestore:indexes,storage']);
    expect(ran.filter((s) => s.cmd === 'GET')).toHaveLength(5); // 0, 15, 30, 45, 60 s on the fake clock
    expect(output()).toContain('Stopped waiting after 1 min 00 s: 1 of');
    expect(output()).toContain(`Resume once they are READY (waits again, then releases the rest): npm run deploy -- --project ${PROJECT} --from index-wait`);
  });

  it('resumes at the index wait without pushing rules and indexes again', async () => {
    expect(await deploy(args({ from: 'index-wait' }), deps(cliFor().cli))).toBe(true);
    expect(firebaseOnly(ran).slice(2)).toEqual(['list indexes', 'deploy functions', 'deploy hosting']);
  });

  it('--skip-index-wait releases without polling', async () => {
    expect(await deploy(args({ skipIndexWait: true }), deps(cliFor().cli))).toBe(true);
    expect(firebaseOnly(ran).slice(2)).toEqual([...PROTECT, 'deploy firestore:rules,firestore:indexes,storage', 'deploy functions', 'deploy hosting']);
  });

  it('a failed release step stops the rest and names the stage to resume from', async () => {
    const d = deps(cliFor().cli);
    d.run = async (step) => {
      ran.push(step);
      if (step.args.includes('functions') && step.args.includes('--only')) throw new Error(`${step.label} failed (exit 2)`);
    };
    expect(await deploy(args(), d)).toBe(false);
    expect(firebaseOnly(ran).at(-1)).toBe('deploy functions');
    expect(output()).toContain('Released before it: database, rules; not released: functions, hosting.');
    expect(output()).toContain(`Fix the error above, then resume: npm run deploy -- --project ${PROJECT} --from functions`);
    // The first release's Eventarc delay: the one failure that heals by waiting.
    expect(output()).toContain("On a project's first release this stage can fail while Eventarc's permissions propagate");
  });

  it('refuses a production build that still talks to the Auth emulator', async () => {
    writeFileSync(join(root, 'web/dist-prod/assets/index.js'), 'connectAuthEmulator(a,"http://127.0.0.1:9099")');
    expect(await deploy(args(), deps(cliFor().cli))).toBe(false);
    expect(output()).toContain('assets/index.js contains "127.0.0.1:9099"');
    expect(ran.some((s) => s.args.includes('--only'))).toBe(false);
  });
});

describe('deploy arguments and config', () => {
  it('takes --project, or the default from .firebaserc, and refuses demo or malformed ids', () => {
    expect(parseDeployArgs(['--project', PROJECT, '--dry-run'], root)).toEqual(args({ dryRun: true }));
    expect(() => parseDeployArgs([], root)).toThrow(/No project given.*firebase use --add/);
    writeFileSync(join(root, '.firebaserc'), JSON.stringify({ projects: { default: PROJECT } }));
    expect(parseDeployArgs([], root)).toEqual(args());
    expect(() => parseDeployArgs(['--project', 'demo-bookstore'], root)).toThrow(/demo project/);
    expect(() => parseDeployArgs(['--project', 'Bad_Id'], root)).toThrow(/not a Firebase project id/);
  });

  it('takes the resume options and refuses an unknown stage', () => {
    expect(parseDeployArgs(['--project', PROJECT, '--from', 'index-wait', '--index-timeout', '45'], root)).toEqual(args({ from: 'index-wait', indexTimeoutMin: 45 }));
    expect(parseDeployArgs(['--project', PROJECT, '--skip-index-wait'], root)).toEqual(args({ skipIndexWait: true }));
    expect(() => parseDeployArgs(['--project', PROJECT, '--from', 'indexes'], root)).toThrow(/--from "indexes" is not one of database, rules, index-wait, functions, hosting/);
    expect(() => parseDeployArgs(['--project', PROJECT, '--index-timeout', 'soon'], root)).toThrow(/not a number of minutes/);
    expect(parseDeployArgs(['--project', PROJECT, '--allow-delete', 'oldReport', '--allow-delete', 'oldFeed'], root)).toEqual(args({ allowDelete: ['oldReport', 'oldFeed'] }));
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

  it('deploys no Firebase Extension: the shop sends its own mail (Extensions shut down on 31 March 2027)', () => {
    const config = JSON.parse(readFileSync(new URL('firebase.json', REPO), 'utf8'));
    expect(config.extensions).toBeUndefined();
    expect(existsSync(new URL('extensions/', REPO))).toBe(false);
  });
});

describe('npm run deploy: the database is protected before anything ships', () => {
  const FIREBASE_JS = 'node_modules/firebase-tools/lib/bin/firebase.js';
  const schedule = (retention: string) => ok(JSON.stringify({ status: 'success', result: [{ name: `projects/${PROJECT}/databases/(default)/backupSchedules/abc`, retention, dailyRecurrence: {} }] }));
  const firebaseCalls = () => ran.filter((s) => s.args[0] === FIREBASE_JS && !s.args.includes('--only')).map((s) => s.args.slice(1));

  beforeEach(() => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    mkdirSync(join(root, 'web/dist-prod/assets'), { recursive: true });
    writeFileSync(join(root, 'web/dist-prod/assets/index.js'), 'console.log(1)');
  });

  it('turns on point-in-time recovery and delete protection, and creates a daily backup kept 14 days', async () => {
    const { cli, calls } = cliFor();
    expect(await deploy(args(), deps(cli))).toBe(true);
    expect(calls).toContainEqual(['firestore:backups:schedules:list', '--database', '(default)', '--project', PROJECT, '--json', '--non-interactive']);
    expect(firebaseCalls()).toEqual([
      ['firestore:databases:update', '(default)', '--point-in-time-recovery', 'ENABLED', '--delete-protection', 'ENABLED', '--project', PROJECT, '--non-interactive'],
      ['firestore:backups:schedules:create', '--database', '(default)', '--recurrence', 'DAILY', '--retention', '14d', '--project', PROJECT, '--non-interactive'],
    ]);
    expect(ran.findIndex((s) => s.args.includes('firestore:backups:schedules:create'))).toBeLessThan(ran.findIndex((s) => s.args.includes('--only')));
  });

  it('a second release creates no second schedule; a schedule keeping backups for another time is corrected', async () => {
    expect(await deploy(args(), deps(cliFor({ schedules: schedule('1209600s') }).cli))).toBe(true);
    expect(firebaseCalls().map((c) => c[0])).toEqual(['firestore:databases:update']);
    expect(output()).toContain(`a daily backup schedule exists, each backup kept 14d (projects/${PROJECT}/databases/(default)/backupSchedules/abc)`);
    ran = [];
    expect(await deploy(args(), deps(cliFor({ schedules: schedule('604800s') }).cli))).toBe(true);
    expect(firebaseCalls().at(-1)).toEqual(['firestore:backups:schedules:update', `projects/${PROJECT}/databases/(default)/backupSchedules/abc`, '--retention', '14d', '--project', PROJECT, '--non-interactive']);
  });

  it('stops before the rules when the protection cannot be set, with the command to resume', async () => {
    const refused = fail('Error: Request to https://firestore.googleapis.com/v1/projects/x/databases/(default)/backupSchedules had HTTP Error: 403, The caller does not have permission');
    expect(await deploy(args(), deps(cliFor({ schedules: refused }).cli))).toBe(false);
    expect(ran.some((s) => s.args.includes('--only'))).toBe(false);
    expect(output()).toContain('Listing the backup schedules failed: Request to https://firestore.googleapis.com/v1/projects/x/databases/(default)/backupSchedules had HTTP Error: 403');
    expect(output()).toContain(`Fix the error above, then resume: npm run deploy -- --project ${PROJECT} --from database`);
  });

  it('the checks say what is already on', async () => {
    const protectedDb = ok(JSON.stringify({ status: 'success', result: { locationId: 'nam5', pointInTimeRecoveryEnablement: 'POINT_IN_TIME_RECOVERY_ENABLED', deleteProtectionState: 'DELETE_PROTECTION_ENABLED' } }));
    expect(await deploy(args({ dryRun: true }), deps(cliFor({ firestore: protectedDb }).cli))).toBe(true);
    expect(output()).toContain('ok   Firestore (default) database: exists (nam5); point-in-time recovery on, delete protection on');
    lines = [];
    const half = ok(JSON.stringify({ status: 'success', result: { locationId: 'nam5', pointInTimeRecoveryEnablement: 'POINT_IN_TIME_RECOVERY_ENABLED' } }));
    expect(await deploy(args({ dryRun: true }), deps(cliFor({ firestore: half }).cli))).toBe(true);
    expect(output()).toContain('point-in-time recovery on, delete protection off (the release turns delete protection on)');
  });
});

// Issue 58: the release runs with no terminal (`npm run deploy -- ... </dev/null`). The firebase-tools
// transcript (deploy-fixtures/firebase-tools-transcript.json: a first release on a project without a
// Hosting site or a cleanup policy) is replayed in order: each call the deploy makes, queries and
// release steps alike, must be the transcript's next one, flags included, and gets its recorded answer.
interface Recorded {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}
const TRANSCRIPT = JSON.parse(readFileSync(new URL('./deploy-fixtures/firebase-tools-transcript.json', import.meta.url), 'utf8')) as { project: string; calls: Recorded[]; unanswered: Recorded[] };
const FIREBASE_BIN = 'node_modules/firebase-tools/lib/bin/firebase.js';

/** The transcript as the deploy's firebase-tools: `cli` for queries, `run` for the release's steps (the builds are only recorded). */
function replay(calls: Recorded[]) {
  const issued: string[][] = [];
  let next = 0;
  const answer = (args: string[]): Recorded => {
    issued.push(args);
    const expected = calls[next];
    if (!expected || JSON.stringify(expected.args) !== JSON.stringify(args)) throw new Error(`firebase ${args.join(' ')}: not the transcript's next call (firebase ${expected?.args.join(' ') ?? '(none left)'})`);
    next++;
    return expected;
  };
  const d = deps(async (args) => answer(args));
  d.run = async (step) => {
    ran.push(step);
    if (step.args[0] !== FIREBASE_BIN) return; // a build
    const { code } = answer(step.args.slice(1));
    if (code !== 0) throw new Error(`${step.label} failed (exit ${code})`);
  };
  return { deps: d, issued, left: () => calls.slice(next) };
}

/** The transcript with one call's answer replaced. */
const answered = (command: string, stdout: string) => TRANSCRIPT.calls.map((c) => (c.args[0] === command ? { ...c, stdout } : c));
const CHANGES = /^(deploy|hosting:sites:create|firestore:databases:update|firestore:backups:schedules:(create|update)|functions:delete)$/;
const changed = (issued: string[][]) => issued.filter((a) => CHANGES.test(a[0]!) && !a.includes('--dry-run'));

describe('npm run deploy, unattended, against the recorded firebase-tools transcript (issue 58)', () => {
  beforeEach(() => {
    expect(TRANSCRIPT.project).toBe(PROJECT);
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    mkdirSync(join(root, 'web/dist-prod/assets'), { recursive: true });
    writeFileSync(join(root, 'web/dist-prod/assets/index.js'), 'console.log(1)');
  });

  it('releases end to end with no terminal: every call non-interactive, the site created first, --force only where it answers the cleanup policy', async () => {
    const { deps: d, issued, left } = replay(TRANSCRIPT.calls);
    expect(await deploy(args(), d)).toBe(true);
    expect(left()).toEqual([]); // every recorded call, in its order, with its flags
    expect(issued.every((a) => a.includes('--non-interactive'))).toBe(true);
    expect(issued.filter((a) => a.includes('--force'))).toEqual([['deploy', '--only', 'functions', '--project', PROJECT, '--config', 'firebase.deploy.json', '--non-interactive', '--force']]);
    expect(changed(issued).map((a) => a.slice(0, 3).join(' '))).toEqual([
      `hosting:sites:create ${PROJECT} --project`,
      'firestore:databases:update (default) --point-in-time-recovery',
      'firestore:backups:schedules:create --database (default)',
      'deploy --only firestore:rules,firestore:indexes,storage',
      'deploy --only functions',
      'deploy --only hosting',
    ]);
    for (const before of TRANSCRIPT.unanswered) expect(issued).not.toContainEqual(before.args);
    expect(output()).toContain(`ok   Hosting site: none yet: the release creates the default site ${PROJECT} before anything else`);
    expect(output()).toContain('ok   Functions this release would delete: none (no function deployed yet)');
    // robots.txt is built with the origin the functions get, whichever .env file holds it.
    expect(ran[0]!.env).toEqual({ PUBLIC_ORIGIN: 'https://shop.my-shop.com' });
    expect(output()).toContain(`Deployed. Check it: npm run smoke -- https://${PROJECT}.web.app`);
  });

  it('refuses a release that would delete a function, naming it and the commands, before anything changes', async () => {
    const legacy = [...codeFunctions(fileURLToPath(REPO)).map((f) => ({ id: f.name, region: f.region, codebase: 'default', platform: 'gcfv2' })), { id: 'legacyReport', region: 'us-central1', codebase: 'default', platform: 'gcfv2' }];
    const listed = JSON.stringify({ status: 'success', result: legacy });
    const { deps: d, issued, left } = replay(answered('functions:list', listed));
    expect(await deploy(args(), d)).toBe(false);
    expect(issued.at(-1)![0]).toBe('functions:list'); // the checks ran to their end, and nothing after
    expect(left()[0]!.args[0]).toBe('hosting:sites:create');
    expect(changed(issued)).toEqual([]);
    expect(ran).toEqual([]); // not even a build
    expect(output()).toContain('FAIL Functions this release would delete: legacyReport (us-central1) is deployed but no longer exported by functions/src/index.ts: the release would delete it');
    expect(output()).toContain(`fix: if it is meant to go: npm run deploy -- --project ${PROJECT} --allow-delete legacyReport   (or delete it first: npx firebase functions:delete legacyReport --region us-central1 --project ${PROJECT})`);
    expect(output()).toMatch(/Refusing to deploy: 1 check failed/);

    // Named with --allow-delete, the release deletes it (firebase-tools' --force does, unasked).
    lines = [];
    ran = [];
    const allowed = replay(answered('functions:list', listed));
    expect(await deploy(args({ allowDelete: ['legacyReport'] }), allowed.deps)).toBe(true);
    expect(allowed.left()).toEqual([]);
    expect(output()).toContain('ok   Functions this release would delete: legacyReport (us-central1): deleted by this release (--allow-delete)');
  });

  it('refuses a release without PUBLIC_ORIGIN, naming it, before anything changes', async () => {
    writeFileSync(join(root, `functions/.env.${PROJECT}`), 'MAIL_FROM=Bookstore <orders@my-shop.com>');
    const { deps: d, issued } = replay(TRANSCRIPT.calls);
    expect(await deploy(args(), d)).toBe(false);
    expect(changed(issued)).toEqual([]);
    expect(ran).toEqual([]);
    expect(output()).toContain(`FAIL Shop address (PUBLIC_ORIGIN in functions/.env*): PUBLIC_ORIGIN is not set in functions/.env.${PROJECT}`);
    expect(output()).toContain(`fix: Set it in functions/.env.${PROJECT} (committed; no secret in it): echo 'PUBLIC_ORIGIN=https://${PROJECT}.web.app' >> functions/.env.${PROJECT}`);
  });

  it('refuses a PUBLIC_ORIGIN that is not an https origin of a real host', async () => {
    for (const [value, said] of [
      ['http://shop.my-shop.com', 'is not https://'],
      ['https://shop.my-shop.com/books', 'has a path or query: give the origin alone (https://shop.my-shop.com)'],
      ['https://127.0.0.1:5000', 'is this machine'],
      ['https://shop.example.com', 'is an example'],
      ['shop.my-shop.com', 'is not a URL'],
    ]) {
      lines = [];
      writeFileSync(join(root, `functions/.env.${PROJECT}`), `MAIL_FROM=Bookstore <orders@my-shop.com>\nNODE_OPTIONS=--max-old-space-size-percentage=75\nPUBLIC_ORIGIN=${value}`);
      expect(await deploy(args({ dryRun: true }), deps(cliFor().cli))).toBe(false);
      expect(output()).toContain(`FAIL Shop address (PUBLIC_ORIGIN in functions/.env*): PUBLIC_ORIGIN "${value}" ${said}`);
    }
    lines = [];
    writeFileSync(join(root, `functions/.env.${PROJECT}`), `MAIL_FROM=Bookstore <orders@my-shop.com>\nNODE_OPTIONS=--max-old-space-size-percentage=75\nPUBLIC_ORIGIN=https://${PROJECT}.web.app/`);
    expect(await deploy(args({ dryRun: true }), deps(cliFor().cli))).toBe(true);
    expect(output()).toContain(`ok   Shop address (PUBLIC_ORIGIN in functions/.env*): https://${PROJECT}.web.app (functions/.env.${PROJECT})\n`);
  });

  it('stops before anything is released when the Hosting site cannot be created', async () => {
    const taken = TRANSCRIPT.calls.map((c) => (c.args[0] === 'hosting:sites:create' ? { ...c, code: 1, stdout: '', stderr: 'Error: Request had HTTP Error: 409, Site already exists' } : c));
    const { deps: d, issued } = replay(taken);
    expect(await deploy(args(), d)).toBe(false);
    expect(changed(issued).map((a) => a[0])).toEqual(['hosting:sites:create']);
    expect(output()).toContain(`Nothing was released. Create the site in the console (https://console.firebase.google.com/project/${PROJECT}/hosting, Get started), then run the deploy again.`);
  });

  it('--from hosting deploys pages (built with the same web build) just before Hosting', async () => {
    const { cli } = cliFor();
    expect(await deploy(args({ from: 'hosting' }), deps(cli))).toBe(true);
    const released = ran.filter((s) => s.args[0] === FIREBASE_BIN).map((s) => s.args.slice(1));
    expect(released).toEqual([
      ['deploy', '--only', 'functions:pages', '--project', PROJECT, '--config', 'firebase.deploy.json', '--non-interactive', '--force'],
      ['deploy', '--only', 'hosting', '--project', PROJECT, '--config', 'firebase.deploy.json', '--non-interactive'],
    ]);
    lines = [];
    expect(await deploy(args({ from: 'hosting', dryRun: true }), deps(cli))).toBe(true);
    expect(lines.find((l) => l.startsWith('  10.'))).toContain("Deploy the pages function (it names the new web build's /assets/ files: a Hosting release carries it): firebase deploy --only functions:pages");
  });

  it('--from hosting is not refused for a function a whole release would delete: it deploys pages alone', async () => {
    const listed = ok(JSON.stringify({ status: 'success', result: [{ id: 'legacyReport', region: 'us-central1', codebase: 'default' }] }));
    expect(await deploy(args({ from: 'hosting', dryRun: true }), deps(cliFor({ functions: listed }).cli))).toBe(true);
    expect(output()).toContain('(not by this run: --from hosting deploys only pages; the next whole release will refuse it)');
    lines = [];
    expect(await deploy(args({ from: 'functions', dryRun: true }), deps(cliFor({ functions: listed }).cli))).toBe(false);
  });
});

describe('npm run deploy: functions the project has cannot be listed', () => {
  it('refuses, since --force could delete what it cannot see, and says how to enable the API on a first release', async () => {
    writeFileSync(join(root, 'web/.env.production.local'), GOOD_ENV);
    const failed: CliAnswer = { code: 1, stdout: JSON.stringify({ status: 'error', error: `Failed to list functions for ${PROJECT}` }), stderr: '' };
    expect(await deploy(args(), deps(cliFor({ functions: failed }).cli))).toBe(false);
    expect(ran).toEqual([]);
    expect(output()).toContain(`FAIL Functions this release would delete: could not be checked: Failed to list functions for ${PROJECT}`);
    expect(output()).toContain(`fix: on a project that never had functions, enable the Cloud Functions API first (https://console.cloud.google.com/apis/library/cloudfunctions.googleapis.com?project=${PROJECT}, or: gcloud services enable cloudfunctions.googleapis.com --project ${PROJECT}), then run the deploy again`);
  });
});
