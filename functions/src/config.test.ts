import { describe, expect, it } from 'vitest';
import { assertSafeEnvironment } from './config';

describe('assertSafeEnvironment', () => {
  it('refuses to start in production with an emulator variable set', () => {
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api', FIRESTORE_EMULATOR_HOST: '127.0.0.1:8080' })).toThrow(/FIRESTORE_EMULATOR_HOST/);
    expect(() => assertSafeEnvironment({ K_SERVICE: 'api' })).not.toThrow();
    expect(() => assertSafeEnvironment({ FUNCTIONS_EMULATOR: 'true', FIRESTORE_EMULATOR_HOST: 'x' })).not.toThrow();
  });
});
