import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// firebase-cli-firestore.cjs leans on firebase-tools internals (decision 013, 036): this fails when
// the pinned version moves them, before the trigger silently stops firing in the Functions emulator.
const require = createRequire(import.meta.url);

describe("the official Firestore entered into the firebase CLI's registry", () => {
  it('is seen as running at our address, where the Functions emulator registers Firestore triggers', () => {
    process.env.BOOKSTORE_FIRESTORE_FOR_TRIGGERS = '127.0.0.1:18080';
    require('./firebase-cli-firestore.cjs');
    const { EmulatorRegistry } = require('firebase-tools/lib/emulator/registry');
    expect(EmulatorRegistry.isRunning('firestore')).toBe(true);
    expect(EmulatorRegistry.url('firestore').toString()).toBe('http://127.0.0.1:18080/');
    expect(EmulatorRegistry.listRunning()).toEqual(['firestore']); // nothing else claimed
  });

  it("the Functions emulator still registers a v2 Firestore trigger through the registry's Firestore", () => {
    // The module as shipped (the loaded prototype's method is our waiting wrapper around it).
    const source = readFileSync(require.resolve('firebase-tools/lib/emulator/functionsEmulator'), 'utf8');
    expect(source).toContain('async addFirestoreTrigger(projectId, key, eventTrigger, signature) {');
    expect(source).toContain('EmulatorRegistry.isRunning(types_1.Emulators.FIRESTORE)');
    expect(source).toContain('/eventarcTrigger?eventarcTriggerId=');
    const { FunctionsEmulator } = require('firebase-tools/lib/emulator/functionsEmulator');
    expect(String(FunctionsEmulator.prototype.addFirestoreTrigger)).toContain('did not answer within 120 s'); // waits for the Java emulator first
  });
});
