import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The launcher preloads auth-emulator-lazy.cjs into the firebase CLI (decision 013): it must apply
// to the exegesis-express the Auth emulator loads, silently. Browser and API tests sign in through
// the Auth emulator started with it, so a patch that broke validation would fail them too.
const PATCH = fileURLToPath(new URL('./auth-emulator-lazy.cjs', import.meta.url));
const CHECK = `
const { createRequire } = require('node:module');
const r = createRequire(require.resolve('firebase-tools/lib/emulator/auth/server.js'));
const exegesis = r('exegesis');
const real = exegesis.compileApi;
let seen;
exegesis.compileApi = (spec, options) => { seen = options; return real(spec, options); };
r('exegesis-express').middleware({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: {} }, { controllers: {} })
  .then(() => console.log(JSON.stringify({ lazy: seen && seen.lazyCompileValidationSchemas })), (e) => { console.error(e); process.exit(1); });
`;

describe('auth-emulator-lazy', () => {
  it("makes the Auth emulator's exegesis compile validation schemas on first use, and says nothing when it applies", () => {
    const run = spawnSync(process.execPath, ['--require', PATCH, '-e', CHECK], { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ lazy: true });
  });
});
