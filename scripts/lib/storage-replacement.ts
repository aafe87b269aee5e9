import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { replaceDir, savedCopy, type BackendContext, type EmulatorBackend } from './backend';
import { HOST, PORTS, PROJECT_ID } from './env';

// The Storage emulator code inside firebase-tools, started without its Java rules runtime
// (which firebase-tools would download). These are internal modules of the pinned version.
const require = createRequire(import.meta.url);
const { StorageEmulator } = require('firebase-tools/lib/emulator/storage');
const { createApp } = require('firebase-tools/lib/emulator/storage/server');
const { EmulatorRegistry } = require('firebase-tools/lib/emulator/registry');
// We override internals (decision 013): refuse to start if they moved in another firebase-tools.
if (typeof StorageEmulator !== 'function' || typeof createApp !== 'function' || typeof EmulatorRegistry?.start !== 'function') {
  throw new Error('firebase-tools changed: its Storage emulator internals (storage, storage/server, registry) are not where scripts/lib/storage-replacement.ts expects');
}

interface StorageLayer {
  export(dir: string, options: { initiatedBy: string }): Promise<void>;
  import(dir: string, options: { initiatedBy: string }): void;
}

export async function startStorageReplacement({ stateDir }: BackendContext): Promise<EmulatorBackend> {
  const dir = stateDir && join(stateDir, 'storage');
  const emulator = new StorageEmulator({
    projectId: PROJECT_ID,
    host: HOST,
    port: PORTS.storage,
    rules: [],
    auto_download: false,
  });
  let server: import('node:http').Server | undefined;
  emulator.start = async () => {
    const app = await createApp(PROJECT_ID, emulator);
    await new Promise<void>((resolve, reject) => {
      server = app.listen(PORTS.storage, HOST, () => resolve());
      server!.once('error', reject);
    });
  };
  emulator.stop = async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  };
  // Without the registry, object writes fail with "Cannot determine host and port of storage".
  await EmulatorRegistry.start(emulator);
  const layer: StorageLayer = emulator.storageLayer;
  const saved = dir && savedCopy(dir);
  if (saved && existsSync(`${saved}/buckets.json`)) layer.import(saved, { initiatedBy: 'launcher' });
  return {
    label: `Storage:   firebase-tools' Storage emulator code, without its Java rules runtime, on ${HOST}:${PORTS.storage}`,
    async save() {
      if (!dir) return;
      await replaceDir(dir, (tmp) => layer.export(tmp, { initiatedBy: 'launcher' }));
    },
    async stop() {
      await EmulatorRegistry.stop('storage').catch(() => emulator.stop());
    },
  };
}
