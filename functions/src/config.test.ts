import { describe, expect, it } from 'vitest';
import { assertSafeEnvironment, assertStrongAdminSecret } from './config';

describe('assertSafeEnvironment', () => {
  it('refuses to start in production with an emulator variable set', () => {
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' })).toThrow(/FIRESTORE_EMULATOR_HOST/);
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api' })).not.toThrow();
    expect(() => assertSafeEnvironment({ FUNCTIONS_EMULATOR: 'true', FIRESTORE_EMULATOR_HOST: 'x' })).not.toThrow();
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
