import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planLines } from './deploy';
import { SECRET, SMTP_SECRET, STRIPE_SECRETS } from './deploy-checks';
import { ROOT } from './env';
import { codeFunctions, definedSecrets } from './function-exports';

// The operator's pages are true (issue 58): what docs/deploying.md and docs/operations.md say about
// the release is read from the code, not from a list kept here. The composite index count
// (firestore.indexes.json), the plan `npm run deploy -- --dry-run` prints, every exported function
// with its trigger and secrets (functions/src/index.ts, functions/src/config.ts's defineSecret), the
// public HTTP functions, the secrets the deploy checks, and the doc sections the deploy's messages
// and the docs' own links point to. The Stripe event list: stripe-events-doc.test.ts.

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const DOCS = ['README.md', 'SECURITY.md', 'docs/deploying.md', 'docs/operations.md', 'docs/api.md', 'docs/testing.md'];
const deploying = read('docs/deploying.md');
const operations = read('docs/operations.md');
const functions = codeFunctions(ROOT);
const secrets = [...new Set(definedSecrets(ROOT).values())].sort();

/** The text between `<!-- name -->` and `<!-- /name -->`. */
function marked(markdown: string, name: string): string {
  const block = new RegExp(`<!-- ${name} -->([\\s\\S]*?)<!-- /${name} -->`).exec(markdown)?.[1];
  if (block === undefined) throw new Error(`no <!-- ${name} --> block`);
  return block;
}
const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** GitHub's anchor for a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const headings = (markdown: string) => [...markdown.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => m[1]!.trim());

describe('the composite indexes the docs count', () => {
  const count = (JSON.parse(read('firestore.indexes.json')) as { indexes: unknown[] }).indexes.length;

  it('is the number firestore.indexes.json declares, wherever a number is given', () => {
    const said: { file: string; text: string; n: number }[] = [];
    for (const file of DOCS.filter((f) => existsSync(join(ROOT, f)))) {
      for (const m of read(file).matchAll(/(\d+) composite indexes|\b\d+ of (\d+) READY/g)) said.push({ file, text: m[0], n: Number(m[1] ?? m[2]) });
    }
    expect(said.filter((s) => s.file === 'docs/deploying.md').length).toBeGreaterThan(0); // the check reads something
    expect(said.filter((s) => s.n !== count)).toEqual([]);
  });

  it('deploying.md shows the plan `npm run deploy -- --dry-run` prints', () => {
    const block = /`--dry-run` prints exactly this plan[^\n]*\n\n```\n([\s\S]*?)```/.exec(deploying)?.[1];
    const plan = planLines({ projectId: '<id>', dryRun: true, from: 'database', skipIndexWait: false, indexTimeoutMin: 20, allowDelete: [] }, ROOT);
    expect(block?.trimEnd().split('\n')).toEqual(['Plan:', ...plan]);
  });
});

describe('the functions the docs list', () => {
  const rows = marked(operations, 'functions')
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
  const documented = new Map(rows.map(([name, trigger, , secretCell]) => [ticked(name!)[0]!, { trigger: trigger!, secrets: ticked(secretCell!).sort() }]));

  it('are every function functions/src/index.ts exports', () => {
    expect([...documented.keys()].sort()).toEqual(functions.map((f) => f.name).sort());
  });

  it('each with its trigger and the secrets it declares', () => {
    // The Trigger cell starts with the kind, then a comma: `HTTPS, public (...)`, `schedule, every ...`.
    const kinds: [RegExp, string][] = [[/^onRequest$/, 'HTTPS'], [/^onCall$/, 'callable'], [/^onSchedule$/, 'schedule'], [/^onDocument/, 'Firestore'], [/^onObject/, 'Storage'], [/^onTaskDispatched$/, 'task queue'], [/^onMessagePublished$/, 'Pub/Sub']];
    const kind = (trigger: string) => kinds.find(([pattern]) => pattern.test(trigger))?.[1] ?? trigger;
    for (const f of functions) {
      const doc = documented.get(f.name);
      expect({ name: f.name, trigger: doc?.trigger.split(',')[0], secrets: doc?.secrets }).toEqual({ name: f.name, trigger: kind(f.trigger), secrets: [...f.secrets].sort() });
    }
  });

  it('deploying.md names exactly the public HTTP functions (the allUsers invoker)', () => {
    expect(ticked(marked(deploying, 'public-functions')).sort()).toEqual(functions.filter((f) => f.trigger === 'onRequest').map((f) => f.name).sort());
  });
});

describe('the secrets the docs list', () => {
  it('are every defineSecret of functions/src/config.ts, and the deploy checks each one', () => {
    expect(secrets.length).toBeGreaterThan(0);
    expect([...new Set([SECRET, SMTP_SECRET, ...STRIPE_SECRETS])].sort()).toEqual(secrets);
    // Every secret a function declares is one config.ts defines (a typo would name a variable here).
    expect(functions.flatMap((f) => f.secrets).filter((s) => !secrets.includes(s))).toEqual([]);
  });

  it("operations.md's configuration table has each, and its costs count them all", () => {
    const configuration = operations.split('## Configuration')[1]!.split('\n## ')[0]!;
    const rows = configuration.split('\n').filter((l) => l.startsWith('| `'));
    for (const secret of secrets) expect(rows.some((row) => ticked(row.split('|')[1]!).includes(secret)), secret).toBe(true);
    const costs = operations.split('\n').find((l) => l.startsWith('| Secret Manager |'))!;
    const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
    const cell = costs.split('|')[3]!;
    expect(ticked(cell.split('(')[1]!.split(')')[0]!).sort()).toEqual(secrets);
    expect(cell.trim().startsWith(`${words[secrets.length]} secrets`)).toBe(true);
  });
});

describe('the doc sections the deploy and the docs point to', () => {
  it("exist: the deploy's messages (docs/<file>.md, \"<section>\")", () => {
    const sources = ['scripts/lib/deploy.ts', 'scripts/lib/deploy-checks.ts', 'scripts/lib/database-protection.ts'].map(read).join('\n');
    const named = [...sources.matchAll(/docs\/([\w./-]+\.md), \\?"([^"\\]+)\\?"/g)].map((m) => ({ file: `docs/${m[1]}`, section: m[2]! }));
    expect(named.length).toBeGreaterThan(0);
    const missing = named.filter(({ file, section }) => !headings(read(file)).some((h) => h.startsWith(section) || h.replace(/^\d+[a-z]?\.\s+/, '').startsWith(section) || h.startsWith(section.replace(/^\d+[a-z]?\.\s+/, ''))));
    expect(missing).toEqual([]);
  });

  it("exist: deploying.md's and operations.md's links to a section", () => {
    const broken: string[] = [];
    for (const file of ['docs/deploying.md', 'docs/operations.md']) {
      for (const m of read(file).matchAll(/\]\(([\w./-]*\.md)?#([\w-]+)\)/g)) {
        const target = m[1] ? join(dirname(file), m[1]) : file;
        if (!headings(read(target)).map(slug).includes(m[2]!)) broken.push(`${file}: ${m[0]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
