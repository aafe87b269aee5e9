// Module boundaries (decision 009, issue 30): the layer order contract -> lib/components -> features
// -> app, features closed to each other, no cycles, and the deployed function and the contract kept
// free of the site and the tooling. dependency-cruiser is plain JavaScript (TypeScript's own parser
// reads the imports), so `npm ci` needs no native resolver binding for any platform.
// Run by `npm run lint` (after ESLint) and so by `npm test`.

const WEB = '^web/src';
const FEATURES = ['admin', 'auth', 'cart', 'catalog', 'checkout', 'orders', 'subscriptions'];

/** Each feature is closed to the others and to app/: shared pieces live in lib/ or components/. */
const featureRules = FEATURES.map((name) => ({
  name: `feature-${name}-closed`,
  comment: `features/${name} may import only contract, lib, components and config: move what it shares to lib/ or components/.`,
  severity: 'error',
  from: { path: `${WEB}/features/${name}/` },
  to: { path: [`${WEB}/app/`, ...FEATURES.filter((other) => other !== name).map((other) => `${WEB}/features/${other}/`)] },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...featureRules,
    {
      name: 'lib-below-features',
      comment: 'lib/ sits below features and app.',
      severity: 'error',
      from: { path: `${WEB}/lib/` },
      to: { path: [`${WEB}/features/`, `${WEB}/app/`] },
    },
    {
      name: 'components-below-features',
      comment: 'components/ sits below features and app.',
      severity: 'error',
      from: { path: `${WEB}/components/` },
      to: { path: [`${WEB}/features/`, `${WEB}/app/`] },
    },
    {
      name: 'contract-stands-alone',
      comment: 'contract/ depends on nothing in the repository.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(functions|web|scripts|bench)/' },
    },
    {
      name: 'function-without-tooling',
      comment: 'The deployed function may not import the tooling, nor the site except its server render (web/src/server/, decision 020).',
      severity: 'error',
      from: { path: '^functions/src/' },
      to: { path: '^(web|scripts|bench)/', pathNot: '^web/src/server/' },
    },
    {
      name: 'no-cycles',
      comment: 'Import cycles make load order matter and hide layering mistakes: break the cycle by moving the shared piece down.',
      severity: 'error',
      from: {},
      // Type-only imports vanish at build time; a cycle through them cannot change load order.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      // Vite's own: virtual modules, and a file's URL (`?url`: the .wasm of the camera's barcode reader).
      to: { couldNotResolve: true, pathNot: ['^virtual:', '[?]url$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '^web/dist', '^functions/lib/', '^artifacts/', '^emulator-data/'] },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    // `@bookstore/contract` is a workspace link: follow it to contract/src.
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    // `import x from './a.ts'` and './a' both resolve; Vite's virtual modules are not files.
    moduleSystems: ['es6', 'cjs'],
  },
};
