import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from '../scripts/lib/env';
import { findCloudSdkJar } from '../scripts/lib/firestore-cloud-sdk';
import { firebaseToolsJars, javaVersion, type FirestoreKind } from '../scripts/lib/suite';

// Names the Firestore emulator the figures were measured on, with versions read from the machine.

function cloudSdk(): string {
  const jar = findCloudSdkJar();
  if (!jar) return 'Cloud SDK jar not found';
  const sdk = dirname(dirname(dirname(jar))); // <sdk>/platform/cloud-firestore-emulator/<jar>
  const read = (file: string) => (existsSync(join(sdk, file)) ? readFileSync(join(sdk, file), 'utf8') : '');
  const snapshot = read('.install/cloud-firestore-emulator.snapshot.json');
  const component = snapshot
    ? (JSON.parse(snapshot) as { components: { id: string; version: { version_string: string } }[] }).components.find((c) => c.id === 'cloud-firestore-emulator')
    : undefined;
  const sdkVersion = read('VERSION').trim();
  return `official Cloud Firestore emulator ${component?.version.version_string ?? '(version unknown)'} (Cloud SDK${sdkVersion ? ` ${sdkVersion}` : ''}), Java ${javaVersion() || 'unknown'}`;
}

function firebaseTools(): string {
  const jar = firebaseToolsJars().find((f) => f.startsWith('cloud-firestore-emulator'));
  return `official Cloud Firestore emulator ${jar?.replace(/^cloud-firestore-emulator-v?|\.jar$/g, '') ?? ''} (firebase-tools), Java ${javaVersion() || 'unknown'}`;
}

function standIn(): string {
  const pkg = JSON.parse(readFileSync(`${ROOT}node_modules/@firestore-emulator/server/package.json`, 'utf8')) as { version: string };
  return `npm stand-in @firestore-emulator/server ${pkg.version} (NOT the official emulator)`;
}

export function describeFirestore(kind: FirestoreKind): string {
  return kind === 'cloud-sdk' ? cloudSdk() : kind === 'firebase-tools' ? firebaseTools() : standIn();
}
