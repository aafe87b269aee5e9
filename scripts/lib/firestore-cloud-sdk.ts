import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { replaceDir, savedCopy, type BackendContext, type EmulatorBackend } from './backend';
import { HOST, PORTS, PROJECT_ID, ROOT } from './env';
import { startServing } from './watched-process';

// The official Cloud Firestore emulator from the Cloud SDK (Debian package
// google-cloud-cli-firestore-emulator). It is the jar firebase-tools downloads, but it runs on Java 17,
// which firebase-tools refuses, so we start it ourselves. Data persists through its own export
// (POST :export) and `--seed_from_export`. See docs/decisions/001-official-firestore-emulator.md.

const JAR = 'platform/cloud-firestore-emulator/cloud-firestore-emulator.jar';
const SDK_DIRS = ['/usr/lib/google-cloud-sdk', '/usr/share/google-cloud-sdk', '/opt/google-cloud-sdk', join(homedir(), 'google-cloud-sdk')];

export function findCloudSdkJar(): string | null {
  const candidates = [process.env.FIRESTORE_EMULATOR_JAR, ...SDK_DIRS.map((dir) => join(dir, JAR))];
  return candidates.find((path): path is string => !!path && existsSync(path)) ?? null;
}

/** The `.overall_export_metadata` file of the export saved in `dir`, if any. */
function exportMetadata(dir: string): string | null {
  if (!existsSync(dir)) return null;
  for (const sub of readdirSync(dir)) {
    const file = join(dir, sub, `${sub}.overall_export_metadata`);
    if (existsSync(file)) return file;
  }
  return null;
}

export async function startCloudSdkFirestore({ stateDir, logFile }: BackendContext): Promise<EmulatorBackend> {
  const jar = findCloudSdkJar();
  if (!jar) throw new Error('No Cloud SDK Firestore emulator jar (google-cloud-cli-firestore-emulator, or FIRESTORE_EMULATOR_JAR)');
  const saved = stateDir && join(stateDir, 'firestore');
  const copy = saved && savedCopy(saved); // the last whole export (backend.ts replaceDir)
  const seed = copy && exportMetadata(copy);
  const java = await startServing(
    `The Firestore emulator (${jar})`,
    'java',
    [
      '-Duser.language=en',
      '-cp', jar,
      'com.google.cloud.datastore.emulator.firestore.CloudFirestore', 'start',
      `--host=${HOST}`, `--port=${PORTS.firestore}`, `--project_id=${PROJECT_ID}`,
      `--rules=${ROOT}firestore.rules`,
      // Where it delivers Firestore trigger events (sendMail): the Functions emulator (decision 037).
      `--functions_emulator=${HOST}:${PORTS.functions}`,
      ...(seed ? [`--seed_from_export=${seed}`] : []),
    ],
    { logFile },
    async (p) => /Dev App Server is now running/.test(p.tail()) || (await fetch(`http://${HOST}:${PORTS.firestore}/`)).ok,
    60_000,
  );
  return {
    label: `Firestore: official Cloud Firestore emulator, ${jar} on Java, on ${HOST}:${PORTS.firestore} (rules: firestore.rules${seed ? '; data restored from its export' : ''})`,
    async save() {
      if (!saved || java.exited()) return;
      await replaceDir(saved, async (tmp) => {
        const res = await fetch(`http://${HOST}:${PORTS.firestore}/emulator/v1/projects/${PROJECT_ID}:export`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ database: `projects/${PROJECT_ID}/databases/(default)`, export_directory: tmp }),
        });
        if (!res.ok) throw new Error(`Firestore export failed: ${res.status} ${await res.text()}`);
      });
    },
    stop: () => java.stop(),
  };
}
