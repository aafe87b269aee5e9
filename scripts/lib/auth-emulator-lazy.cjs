// Preloaded into the firebase CLI by the launcher (`node --require`, scripts/lib/suite.ts): the Auth
// emulator builds its REST API with exegesis, which compiles every request and response schema of
// Google's Identity Toolkit with ajv before the emulator listens: about 8 s of CPU at every start
// (measured with --cpu-prof, ajv the top entry), the largest single part of a first `npm start`.
// exegesis's own option `lazyCompileValidationSchemas` compiles each schema when a request first
// needs it instead; validation is unchanged. A patch of code we do not own (decision 013): if
// exegesis-express moved, the emulator starts as before (slower) and this says so.
'use strict';
const { createRequire } = require('node:module');

try {
  const fromAuthEmulator = createRequire(require.resolve('firebase-tools/lib/emulator/auth/server.js'));
  const exegesisExpress = fromAuthEmulator('exegesis-express');
  const middleware = exegesisExpress.middleware;
  if (typeof middleware !== 'function') throw new Error('exegesis-express has no middleware()');
  exegesisExpress.middleware = (spec, options) => middleware(spec, { lazyCompileValidationSchemas: true, ...options });
} catch (error) {
  console.warn(`auth-emulator-lazy: not applied, the Auth emulator compiles its schemas at start (${error.message})`);
}
