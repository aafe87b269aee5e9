// `npm run lint`: TypeScript and React hook rules, plus the module boundaries the README describes
// (contract -> lib/components -> features -> app; features never import each other).
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WEB = 'web/src';
const FEATURES = ['admin', 'auth', 'cart', 'catalog', 'checkout', 'orders'];

/** Each feature is closed to the others and to app/: shared pieces live in lib/ or components/. */
const featureZones = FEATURES.map((name) => ({
  target: `./${WEB}/features/${name}`,
  from: [`./${WEB}/app`, ...FEATURES.filter((other) => other !== name).map((other) => `./${WEB}/features/${other}`)],
  message: `features/${name} may import only contract, lib, components and config: move what it shares to lib/ or components/.`,
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/lib-build/**', 'artifacts/**', 'emulator-data/**', 'web/public/**', 'functions/lib/**'] },
  {
    files: ['contract/src/**/*.ts', 'functions/src/**/*.ts', 'functions/test/**/*.ts', 'scripts/**/*.{ts,mjs}', 'bench/**/*.ts', 'web/src/**/*.{ts,tsx}', 'web/e2e/**/*.ts', '*.{ts,js}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    settings: {
      // Without these, import-x cannot parse .ts/.tsx dependencies and no-cycle silently sees no edges.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureZones,
            { target: `./${WEB}/lib`, from: [`./${WEB}/features`, `./${WEB}/app`], message: 'lib/ sits below features and app.' },
            { target: `./${WEB}/components`, from: [`./${WEB}/features`, `./${WEB}/app`], message: 'components/ sits below features and app.' },
            { target: './contract', from: ['./functions', './web', './scripts', './bench'], message: 'contract/ depends on nothing in the repository.' },
            { target: './functions/src', from: ['./scripts', './bench'], message: 'The deployed function may not import the tooling.' },
            // The pages function renders the storefront's own components: only through the web app's server entry.
            { target: './functions/src', from: ['./web'], except: ['./src/server'], message: 'The deployed function may import the site only through web/src/server/.' },
          ],
        },
      ],
      // `_name` marks a parameter or binding kept on purpose (callbacks with a fixed signature, rest omission).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
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
