import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PORTS, PORT_SLOT } from './env';
import { AUTH_EMULATOR_ORIGIN, emulatorConfig, emulatorCsp, FIRESTORE_EMULATOR_ORIGIN } from './emulator-config';

describe('emulatorCsp', () => {
  it('adds only the Auth emulator (connect-src, frame-src) and the Firestore emulator (connect-src)', () => {
    const production = JSON.parse(readFileSync(new URL('../../firebase.json', import.meta.url), 'utf8')).hosting.headers
      .flatMap((rule: { headers: { key: string; value: string }[] }) => rule.headers)
      .find((h: { key: string }) => h.key === 'Content-Security-Policy').value as string;
    const local = emulatorCsp(production);
    expect(AUTH_EMULATOR_ORIGIN).toBe(`http://127.0.0.1:${PORTS.auth}`);
    expect(FIRESTORE_EMULATOR_ORIGIN).toBe(`http://127.0.0.1:${PORTS.firestore}`);
    expect(local.replaceAll(` ${AUTH_EMULATOR_ORIGIN}`, '').replaceAll(` ${FIRESTORE_EMULATOR_ORIGIN}`, '')).toBe(production.split(';').map((d) => d.trim()).filter(Boolean).join('; '));
    expect(local).toContain(` ${AUTH_EMULATOR_ORIGIN} ${FIRESTORE_EMULATOR_ORIGIN};`);
    expect(local).toMatch(new RegExp(`frame-src [^;]* ${AUTH_EMULATOR_ORIGIN.replaceAll('.', '\\.')};`));
    expect(local.match(/127\.0\.0\.1/g)).toHaveLength(3);
  });
});

describe('emulatorConfig', () => {
  it("keeps everything but the CSP and this slot's ports", () => {
    const real = readFileSync(new URL('../../firebase.json', import.meta.url), 'utf8');
    const original = JSON.parse(real);
    const local = JSON.parse(emulatorConfig(real));
    expect(local.functions).toEqual(original.functions);
    if (PORT_SLOT === 0) expect(local.emulators).toEqual(original.emulators);
    expect(local.emulators.hosting.port).toBe(PORTS.hosting);
    expect(local.hosting.rewrites).toEqual(original.hosting.rewrites);
  });
});
