import { describe, expect, it } from 'vitest';
import { onRequest } from 'firebase-functions/v2/https';
import { adminJwtSecret, assertSafeEnvironment, assertStrongAdminSecret, bodyLimitFor, isLoopbackHost, MAX_JSON_BYTES, runningFunctionSecrets } from './config';

describe('assertSafeEnvironment', () => {
  it('refuses to start on Cloud Run with an emulator variable pointing off the machine', () => {
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api', FIRESTORE_EMULATOR_HOST: '10.0.0.8:8080' })).toThrow(/FIRESTORE_EMULATOR_HOST/);
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api', FIREBASE_AUTH_EMULATOR_HOST: 'evil.example:9099' })).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api', STORAGE_EMULATOR_HOST: 'http://127.0.0.1.evil.example:9199' })).toThrow(/STORAGE_EMULATOR_HOST/);
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api' })).not.toThrow();
  });

  it('is not skipped by a stray FUNCTIONS_EMULATOR=true', () => {
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api', FUNCTIONS_EMULATOR: 'true', FIREBASE_AUTH_EMULATOR_HOST: 'auth.example.com:9099' })).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST/,
    );
  });

  it('lets the local emulators run (K_SERVICE set by the Functions emulator, every host loopback)', () => {
    const local = {
      K_SERVICE: 'api',
      FUNCTIONS_EMULATOR: 'true',
      FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080',
      FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9099',
      FIREBASE_STORAGE_EMULATOR_HOST: '[::1]:9199',
      STORAGE_EMULATOR_HOST: 'http://127.0.0.1:9199',
    };
    expect(() => assertSafeEnvironment(local)).not.toThrow();
    // Outside Cloud Run (scripts, tests) there is nothing to guard.
    expect(() => assertSafeEnvironment({ FIRESTORE_EMULATOR_HOST: '10.0.0.8:8080' })).not.toThrow();
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1:8080', true],
    ['127.5.6.7:1', true],
    ['localhost:9099', true],
    ['[::1]:9199', true],
    ['http://127.0.0.1:9199', true],
    ['10.0.0.8:8080', false],
    ['0.0.0.0:8080', false],
    ['localhost.evil.example:9099', false],
    ['http://127.0.0.1@evil.example:9199', false],
    ['', false],
  ])('%s -> %s', (value, loopback) => {
    expect(isLoopbackHost(value)).toBe(loopback);
  });
});

describe('bodyLimitFor', () => {
  it('gives a route its larger limit only with its content type; everything else the JSON limit', () => {
    expect(bodyLimitFor('POST', '/api/books/cover', 'multipart/form-data; boundary=x').bytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(bodyLimitFor('post', '/API/books/cover/?x=1', 'multipart/form-data; boundary=x').bytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(bodyLimitFor('POST', '/api/books/import', 'text/csv').bytes).toBe(5 * 1024 * 1024);
    expect(bodyLimitFor('POST', '/api/books/cover', 'application/json').bytes).toBe(MAX_JSON_BYTES);
    expect(bodyLimitFor('PUT', '/api/books/cover', 'multipart/form-data').bytes).toBe(MAX_JSON_BYTES);
    expect(bodyLimitFor('POST', '/api/books/create-book', 'application/json')).toEqual({ bytes: MAX_JSON_BYTES, message: 'Request body is too large' });
    expect(bodyLimitFor(undefined, undefined, undefined).bytes).toBe(MAX_JSON_BYTES);
  });
});

describe('assertStrongAdminSecret', () => {
  it('refuses to start on Cloud Run (and in the emulator) with a secret under 32 bytes', () => {
    expect(() => assertStrongAdminSecret({ K_SERVICE: 'api', ADMIN_JWT_SECRET: 'short' })).toThrow(/at least 32 bytes/);
    expect(() => assertStrongAdminSecret({ K_SERVICE: 'api' })).toThrow(/at least 32 bytes/);
    expect(() => assertStrongAdminSecret({ K_SERVICE: 'api', FUNCTIONS_EMULATOR: 'true', ADMIN_JWT_SECRET: 'x'.repeat(31) })).toThrow();
    expect(() => assertStrongAdminSecret({ K_SERVICE: 'api', ADMIN_JWT_SECRET: 'ab'.repeat(32) })).not.toThrow();
  });

  it('does not check while firebase-tools reads the triggers, when no secret exists yet', () => {
    expect(() => assertStrongAdminSecret({ K_SERVICE: 'api', FUNCTIONS_CONTROL_API: 'true' })).not.toThrow();
    expect(() => assertStrongAdminSecret({})).not.toThrow();
  });
});

describe('each function checks only the secrets it declares', () => {
  // Declared as index.ts declares them: the check reads the same declaration firebase-tools deploys.
  const handler = (_req: unknown, res: { end(): void }) => res.end();
  const functions = { api: onRequest({ secrets: [adminJwtSecret] }, handler), pages: onRequest({}, handler) };

  it('reads the running function from FUNCTION_TARGET, or K_SERVICE (the export in lower case)', () => {
    expect(runningFunctionSecrets(functions, { K_SERVICE: 'api', FUNCTION_TARGET: 'api' })).toEqual(['ADMIN_JWT_SECRET']);
    expect(runningFunctionSecrets(functions, { K_SERVICE: 'pages' })).toEqual([]);
    expect(runningFunctionSecrets(functions, { K_SERVICE: 'API' })).toEqual(['ADMIN_JWT_SECRET']);
    expect(runningFunctionSecrets(functions, { K_SERVICE: 'someone-else' })).toBeNull();
  });

  it('lets pages start on Cloud Run without the admin secret, and still stops api without it', () => {
    const pages = { K_SERVICE: 'pages', FUNCTION_TARGET: 'pages' };
    expect(() => assertStrongAdminSecret(pages, runningFunctionSecrets(functions, pages))).not.toThrow();
    const api = { K_SERVICE: 'api', FUNCTION_TARGET: 'api', ADMIN_JWT_SECRET: 'short' };
    expect(() => assertStrongAdminSecret(api, runningFunctionSecrets(functions, api))).toThrow(/at least 32 bytes/);
  });

  it('checks the secret when it cannot tell which function runs', () => {
    const unknown = { K_SERVICE: 'renamed' };
    expect(() => assertStrongAdminSecret(unknown, runningFunctionSecrets(functions, unknown))).toThrow(/at least 32 bytes/);
  });
});
