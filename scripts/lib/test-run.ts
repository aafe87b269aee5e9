import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EMULATOR_ENV, ROOT } from './env';
import { formatFailure, vitestFailures, type Failure, type VitestReport } from './failures';
import { run } from './watched-process';

// One run of the test runners (`npm test`, `npm run test:quick`): each runner's counts added up, each
// failed test by name, how long each step took, and the summary printed last, where CI keeps it.

export type Counts = Record<'passed' | 'failed' | 'skipped', number>;
/** Where a step's output goes: the terminal, or (for a step run beside the tests) a buffer printed when it ends. */
export type Out = (text: string) => void;
export const terminal: Out = (text) => console.log(text);

/** Workers for the API files that run beside each other (BOOKSTORE_API_WORKERS to change). */
export const API_WORKERS = Number(process.env.BOOKSTORE_API_WORKERS) || 3;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class TestRun {
  readonly total: Counts = { passed: 0, failed: 0, skipped: 0 };
  /** Each failed test by name, listed again under the summary (CI keeps only the end of the log). */
  readonly failures: Failure[] = [];
  /** How long each step took, printed last: where a slow run spent its time. */
  private readonly timings: [string, number][] = [];
  private readonly started = Date.now();
  /** What every runner gets on top of this process's environment and the emulators' addresses. */
  readonly env: Record<string, string> = {};

  /** `name`: the command, named in the summary when it fails outside any runner. */
  constructor(private readonly name: string) {
    mkdirSync(join(ROOT, 'artifacts'), { recursive: true }); // where the runners write their reports
  }

  async timed<T>(name: string, step: () => Promise<T>): Promise<T> {
    const at = Date.now();
    try {
      return await step();
    } finally {
      this.timings.push([name, (Date.now() - at) / 1000]);
    }
  }

  /** Adds a check's counts (the smoke, the rehearsal) and its failures. */
  add(counts: Counts, failed: Failure[] = []): void {
    for (const key of ['passed', 'failed', 'skipped'] as const) this.total[key] += counts[key];
    this.failures.push(...failed);
  }

  /** A failure outside any test (a step that threw), counted as one. */
  fail(where: string, error: unknown): void {
    this.add({ passed: 0, failed: 1, skipped: 0 }, [{ where, name: '', why: message(error) }]);
  }

  /** Runs a node script without blocking this process (it may host emulators and stand-ins). */
  async runNode(script: string[], out: Out = terminal): Promise<number> {
    const capture = out !== terminal;
    const r = await run(process.execPath, script, { env: { ...process.env, ...EMULATOR_ENV, ...this.env }, capture });
    if (capture) out(`${r.stdout}${r.stderr}`.trimEnd());
    return r.code;
  }

  /** Runs a test runner that writes a JSON report to `report`, and adds its counts to the total. */
  async counted<Report>(what: string, report: string, script: string[], counts: (report: Report) => Counts, failed: (report: Report) => Failure[], out: Out = terminal): Promise<void> {
    rmSync(report, { force: true });
    await this.runNode(script, out);
    if (!existsSync(report)) {
      this.add({ passed: 0, failed: 1, skipped: 0 }, [{ where: what, name: '', why: 'produced no report' }]);
      out(`${what} produced no report`);
      return;
    }
    const parsed = JSON.parse(readFileSync(report, 'utf8')) as Report;
    this.add(counts(parsed), failed(parsed));
  }

  /** A vitest project (vitest.config.ts), narrowed to `files` when given. */
  vitest(project: string, { files = [], extra = [], out = terminal }: { files?: string[]; extra?: string[]; out?: Out } = {}): Promise<void> {
    const report = join(ROOT, 'artifacts', `vitest-${project}.json`);
    type Report = Record<'numPassedTests' | 'numFailedTests' | 'numPendingTests' | 'numTodoTests', number> & VitestReport;
    // --passWithNoTests: a file filter may match nothing in one of a layer's two groups.
    return this.counted(`vitest ${project}`, report, ['node_modules/vitest/vitest.mjs', 'run', '--project', project, '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile=${report}`, ...extra, ...files], (r: Report) => ({
      // Each failed test once, and a file that failed with none (an import or a hook threw): Vitest's
      // numFailedTestSuites counts every describe block around a failed test too.
      passed: r.numPassedTests, failed: Math.max(r.numFailedTests, vitestFailures(r, ROOT).length), skipped: r.numPendingTests + (r.numTodoTests ?? 0),
    }), (r) => vitestFailures(r, ROOT), out);
  }

  /**
   * A step run beside others (lint, the unit tests, a build): its output is kept and printed in one
   * block when it ends, so it never cuts into a test layer's. Resolves false if it threw.
   */
  async beside(name: string, step: (out: Out) => Promise<void>): Promise<boolean> {
    const lines: string[] = [];
    let ok = true;
    await this.timed(`${name} (beside)`, () => step((text) => lines.push(text)).catch((error: unknown) => {
      ok = false;
      lines.push(`${name} failed: ${message(error)}`);
      this.fail(name, error);
    }));
    console.log(`\n---- ${name} (ran beside the tests) ----\n${lines.join('\n')}\n---- end of ${name} ----\n`);
    return ok;
  }

  /** Runs `main`, then prints the times, the failed tests by name and the counts, and exits 1 on any failure. */
  finish(main: Promise<void>): void {
    void main
      .catch((error: unknown) => {
        console.error(`\n${message(error)}`);
        this.fail(this.name, error);
      })
      .finally(() => {
        const times = this.timings.map(([name, seconds]) => `${name} ${seconds.toFixed(1)} s`).join(', ');
        console.log(`\ntimes: ${times ? `${times}; ` : ''}in all ${((Date.now() - this.started) / 1000).toFixed(1)} s`);
        if (this.failures.length > 0) console.log(`\nfailed (each runner's output above says more):\n${this.failures.map(formatFailure).join('\n')}`);
        console.log(`tests: ${this.total.passed} passed, ${this.total.failed} failed, ${this.total.skipped} skipped`);
        process.exit(this.total.failed > 0 ? 1 : 0);
      });
  }
}
