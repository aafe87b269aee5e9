import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { rewriteReactSentinels } from '../stackless-react-sentinels';

const require = createRequire(import.meta.url);
// The file the web build resolves for react-dom/client in production (not in the package's exports).
const file = join(dirname(require.resolve('react-dom/package.json')), 'cjs/react-dom-client.production.js');
const source = readFileSync(file, 'utf8');

describe("React DOM's sentinel errors, made without a stack (web/stackless-react-sentinels.ts)", () => {
  it('rewrites the five module-level sentinels and nothing else', () => {
    const out = rewriteReactSentinels(source);
    expect(out.match(/= stacklessError\(formatProdErrorMessage\(\d+\)\)/g)).toHaveLength(5);
    expect(out).not.toMatch(/\w+Exception = Error\(formatProdErrorMessage/);
    // Errors React throws at run time are untouched, and the file's lines keep their numbers.
    expect(out.split('throw Error(formatProdErrorMessage(').length).toBe(source.split('throw Error(formatProdErrorMessage(').length);
    expect(out.split('\n').slice(0, source.split('\n').length - 1).map((l) => l.replace(/stacklessError/g, 'Error'))).toEqual(source.split('\n').slice(0, -1));
  });

  it('still runs as React DOM: the module evaluates and exports its client API', () => {
    const module = { exports: {} as Record<string, unknown> };
    new Function('module', 'exports', 'require', rewriteReactSentinels(source))(module, module.exports, createRequire(file));
    expect(typeof module.exports.createRoot).toBe('function');
    expect(typeof module.exports.hydrateRoot).toBe('function');
  });

  it('makes errors without a stack that are still errors', () => {
    const module = { exports: {} as Record<string, unknown> };
    new Function('module', 'exports', 'require', `${rewriteReactSentinels(source)}\nmodule.exports.make = stacklessError;`)(module, module.exports, createRequire(file));
    const error = (module.exports.make as (m: string) => Error)('Minified React error #460');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('Minified React error #460');
    expect(Object.hasOwn(error, 'stack')).toBe(false);
  });

  it('refuses a React DOM whose sentinels changed, so an upgrade is looked at', () => {
    expect(() => rewriteReactSentinels(source.replace('SuspenseException = Error(', 'SuspenseException = new Error('))).toThrow(/sentinel errors changed/);
  });
});
