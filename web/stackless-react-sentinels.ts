import type { Plugin } from 'vite';

/**
 * React DOM creates five errors when its module is evaluated: sentinels it throws to itself and
 * compares by identity (Suspense, a hydration mismatch, selective hydration), never shown with a
 * stack. With an inspector attached (Lighthouse, DevTools, the bench's Playwright), V8 records a
 * detailed stack for every error created, and for that re-parses every function on the stack:
 * React DOM's module function and the whole entry chunk's top level, 70 ms of the entry's 94 ms
 * under 4x CPU (decision 061). A phone without DevTools never paid it, but every measurement did.
 * Here they are made as errors without a stack (`instanceof Error`, same message), before the
 * inspector can ask for one. The build fails if React's source no longer has exactly these five,
 * so an upgrade is looked at rather than silently measured differently.
 */
const SENTINEL = /\b(\w+Exception) = Error\(formatProdErrorMessage\((\d+)\)\)/g;
const EXPECTED = ['HydrationMismatchException', 'SuspenseException', 'SuspenseyCommitException', 'SuspenseActionException', 'SelectiveHydrationException'];
const REACT_DOM_CLIENT = /[\\/]react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/;

// Appended (a declaration is hoisted): the file's 'use strict' stays first and its lines keep their numbers.
const HELPER = '\nfunction stacklessError(message) { var error = Object.create(Error.prototype); error.message = message; return error; }\n';

export function rewriteReactSentinels(code: string): string {
  const found: string[] = [];
  const rewritten = code.replace(SENTINEL, (_all, name: string, code: string) => {
    found.push(name);
    return `${name} = stacklessError(formatProdErrorMessage(${code}))`;
  });
  if (found.sort().join() !== [...EXPECTED].sort().join()) {
    throw new Error(`react-dom's module-level sentinel errors changed (found: ${found.join(', ') || 'none'}); see web/stackless-react-sentinels.ts`);
  }
  return rewritten + HELPER;
}

export function stacklessReactSentinels(): Plugin {
  return {
    name: 'bookstore-stackless-react-sentinels',
    apply: 'build',
    transform(code, id) {
      if (!REACT_DOM_CLIENT.test(id)) return undefined;
      return { code: rewriteReactSentinels(code), map: null };
    },
  };
}
