// The names of the tests that failed, read from the runners' JSON reports, so that `npm test` can list
// them again under its summary: CI keeps only the end of a long log, where the runners' own lists of
// failures are long scrolled away.

/** One failed test: where it lives, its name, and the first line of why. */
export type Failure = { where: string; name: string; why: string };

const firstLine = (text: string | undefined) => (text ?? '').split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? '';
const relative = (file: string, root: string) => {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
};
// Runners colour their messages; the summary is plain text.
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

export type VitestReport = {
  testResults?: { name: string; status: string; message?: string; assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[] }[];
};

export function vitestFailures(report: VitestReport, root: string): Failure[] {
  const failures: Failure[] = [];
  for (const file of report.testResults ?? []) {
    const where = relative(file.name, root);
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) failures.push({ where, name: a.fullName, why: plain(firstLine(a.failureMessages?.[0])) });
    // A file that failed with no failed test in it: a hook or the import threw.
    if (failed.length === 0 && file.status === 'failed') failures.push({ where, name: '(the file itself)', why: plain(firstLine(file.message)) });
  }
  return failures;
}

type PlaywrightSuite = {
  title: string;
  file?: string;
  specs?: { title: string; line?: number; tests: { status: string; results: { errors?: { message?: string }[]; error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
};
type PlaywrightReport = { suites?: PlaywrightSuite[]; errors?: { message?: string }[] };

export function playwrightFailures(report: PlaywrightReport): Failure[] {
  const failures: Failure[] = [];
  const walk = (suite: PlaywrightSuite, file: string, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const last = test.results.at(-1);
        const why = last?.error?.message ?? last?.errors?.[0]?.message;
        failures.push({ where: `${file}:${spec.line ?? ''}`, name: [...titles, spec.title].join(' › '), why: plain(firstLine(why)) });
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.file ?? file, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file ?? suite.title, []);
  for (const error of report.errors ?? []) failures.push({ where: '(loading the specs)', name: '', why: plain(firstLine(error.message)) });
  return failures;
}

export const formatFailure = (f: Failure) => `  ✗ ${f.where}${f.name ? ` › ${f.name}` : ''}${f.why ? `\n      ${f.why}` : ''}`;
