// Loaded into the firebase CLI's own process (`node --require` this file, by scripts/lib/suite.ts)
// when our launcher runs the official Firestore emulator itself (firebase-tools will not start it on
// Java 17: decision 001). It enters that running emulator in the CLI's EmulatorRegistry, as
// storage-replacement.ts does for Storage in ours, so the Functions emulator registers the
// Firestore triggers (`sendMail` on mail/{id}) with it, as it would with a Firestore it started:
// POST /emulator/v1/projects/<project>/eventarcTrigger, once that Firestore answers. The emulator jar is started with
// --functions_emulator, so it delivers each event to the Functions emulator. Decision 037.
// Internal modules of the pinned firebase-tools (decision 013): it refuses to run if they moved.
'use strict';

const where = process.env.BOOKSTORE_FIRESTORE_FOR_TRIGGERS;
if (where) {
  const { EmulatorRegistry } = require('firebase-tools/lib/emulator/registry');
  const { Emulators } = require('firebase-tools/lib/emulator/types');
  if (typeof EmulatorRegistry?.set !== 'function' || typeof EmulatorRegistry?.isRunning !== 'function' || Emulators?.FIRESTORE !== 'firestore') {
    throw new Error('firebase-tools changed: EmulatorRegistry.set or Emulators.FIRESTORE is not where scripts/lib/firebase-cli-firestore.cjs expects');
  }
  const at = where.lastIndexOf(':');
  const host = where.slice(0, at);
  const port = Number(where.slice(at + 1));
  // An emulator the CLI did not start and will not stop: the launcher owns the process.
  EmulatorRegistry.set(Emulators.FIRESTORE, {
    getName: () => Emulators.FIRESTORE,
    getInfo: () => ({ name: Emulators.FIRESTORE, host, port }),
    start: async () => {},
    connect: async () => {},
    stop: async () => {},
  });

  // The launcher starts the Java emulator beside this CLI (suite.ts), so it may still be starting
  // when the Functions emulator registers the triggers: each registration waits until it answers.
  const { FunctionsEmulator } = require('firebase-tools/lib/emulator/functionsEmulator');
  const addFirestoreTrigger = FunctionsEmulator?.prototype?.addFirestoreTrigger;
  if (typeof addFirestoreTrigger !== 'function') {
    throw new Error('firebase-tools changed: FunctionsEmulator.prototype.addFirestoreTrigger is not where scripts/lib/firebase-cli-firestore.cjs expects');
  }
  const answers = async () => {
    try {
      return (await fetch(`http://${host}:${port}/`)).ok;
    } catch {
      return false;
    }
  };
  FunctionsEmulator.prototype.addFirestoreTrigger = async function (...args) {
    const deadline = Date.now() + 120_000;
    while (!(await answers())) {
      if (Date.now() > deadline) throw new Error(`The Firestore emulator at ${where} did not answer within 120 s: its triggers (sendMail) cannot be registered`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return addFirestoreTrigger.apply(this, args);
  };
}
