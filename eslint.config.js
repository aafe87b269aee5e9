// `npm run lint`: TypeScript and React hook rules. The module boundaries (contract -> lib/components ->
// features -> app, features never import each other, no cycles) are .dependency-cruiser.cjs's, run
// right after ESLint: pure JavaScript, so `npm ci` needs no native resolver (issue 30).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import aggregates from './eslint-rules/aggregate-writes.js';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/lib-build/**', 'artifacts/**', 'emulator-data/**', 'web/public/**', 'functions/lib/**'] },
  {
    files: ['contract/src/**/*.ts', 'functions/src/**/*.ts', 'functions/test/**/*.ts', 'scripts/**/*.{ts,mjs}', 'bench/**/*.ts', 'web/src/**/*.{ts,tsx}', 'web/e2e/**/*.ts', '*.{ts,js}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_name` marks a parameter or binding kept on purpose (callbacks with a fixed signature, rest omission).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // One owner per aggregate (STYLE.md section 13): orders and books are written only by their write paths.
    files: ['functions/src/**/*.ts'],
    ignores: ['functions/src/**/*.test.ts'],
    plugins: { bookstore: aggregates },
    rules: {
      'bookstore/aggregate-writes': ['error', {
        aggregates: [
          { name: 'order', collections: ['orders'], accessors: ['orders', 'orderRef'], owners: ['functions/src/orders/order-writes.ts'] },
          { name: 'book', collections: ['books'], accessors: ['books', 'bookRef'], owners: ['functions/src/books/book-writes.ts'] },
          // An unlisted book's copies are stock too (decision 056): counted and taken over by the same path.
          { name: 'unlisted book', collections: ['unlistedBooks'], accessors: ['unlistedBooks', 'unlistedRef'], owners: ['functions/src/books/book-writes.ts'] },
        ],
      }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['web/e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // Tests and benchmarks read arbitrary JSON bodies and poke at them on purpose; the shipped code keeps the rule.
    files: ['functions/test/**/*.ts', 'web/e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
