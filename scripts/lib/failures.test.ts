import { describe, expect, it } from 'vitest';
import { formatFailure, playwrightFailures, vitestFailures } from './failures';

// `npm test` lists each failed test again under its summary, read from the runners' JSON reports
// (shapes as Vitest 4 and Playwright write them).
describe('the failures listed under the summary', () => {
  it('names each failed Vitest test with the first line of its message, and a file that failed with none', () => {
    const report = {
      testResults: [
        { name: '/repo/functions/test/orders.api.test.ts', status: 'failed', message: '', assertionResults: [
          { fullName: 'orders a paid order', status: 'passed', failureMessages: [] },
          { fullName: 'orders refuses a bad total', status: 'failed', failureMessages: ['\u001b[31mAssertionError: expected 500 to be 409\u001b[39m\n    at foo.ts:1'] },
        ] },
        { name: '/repo/functions/test/mail.api.test.ts', status: 'failed', message: 'Hook timed out in 10000ms\nmore', assertionResults: [] },
        { name: '/repo/functions/test/ok.api.test.ts', status: 'passed', assertionResults: [{ fullName: 'fine', status: 'passed' }] },
      ],
    };
    expect(vitestFailures(report, '/repo/')).toEqual(vitestFailures(report, '/repo'));
    expect(vitestFailures(report, '/repo')).toEqual([
      { where: 'functions/test/orders.api.test.ts', name: 'orders refuses a bad total', why: 'AssertionError: expected 500 to be 409' },
      { where: 'functions/test/mail.api.test.ts', name: '(the file itself)', why: 'Hook timed out in 10000ms' },
    ]);
  });

  it('names each unexpected Playwright test by file, line and titles, and each spec that failed to load', () => {
    const report = {
      suites: [{
        title: 'cart.spec.ts', file: 'cart.spec.ts',
        specs: [{ title: 'adds a book', line: 12, tests: [{ status: 'unexpected', results: [{ error: { message: 'Error: expect(locator).toBeVisible() failed\n\nLocator: x' } }] }] }],
        suites: [{ title: 'checkout', file: 'cart.spec.ts', specs: [
          { title: 'pays by card', line: 40, tests: [{ status: 'unexpected', results: [{ errors: [{ message: 'Test timeout of 60000ms exceeded.' }] }] }] },
          { title: 'flaky one', line: 50, tests: [{ status: 'flaky', results: [] }] },
          { title: 'fine', line: 60, tests: [{ status: 'expected', results: [] }] },
        ] }],
      }],
      errors: [{ message: 'SyntaxError: Unexpected token in broken.spec.ts' }],
    };
    const found = playwrightFailures(report);
    expect(found).toEqual([
      { where: 'cart.spec.ts:12', name: 'adds a book', why: 'Error: expect(locator).toBeVisible() failed' },
      { where: 'cart.spec.ts:40', name: 'checkout › pays by card', why: 'Test timeout of 60000ms exceeded.' },
      { where: '(loading the specs)', name: '', why: 'SyntaxError: Unexpected token in broken.spec.ts' },
    ]);
    expect(found[1] && formatFailure(found[1])).toBe('  ✗ cart.spec.ts:40 › checkout › pays by card\n      Test timeout of 60000ms exceeded.');
  });
});
