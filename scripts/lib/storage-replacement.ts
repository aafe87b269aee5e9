import { createRequire } from 'node:module';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EmulatorBackend } from './backend';
import { HOST, PORTS, PROJECT_ID } from './env';

// The Storage emulator code inside firebase-tools, started without its Java rules runtime
// (which firebase-tools would download). These are internal modules of the pinned version.
const require = createRequire(import.meta.url);
const { StorageEmulator } = require('firebase-tools/lib/emulator/storage');
const { createApp } = require('firebase-tools/lib/emulator/storage/server');
const { EmulatorRegistry } = require('firebase-tools/lib/emulator/registry');

interface StorageLayer {
  export(dir: string, options: { initiatedBy: string }): Promise<void>;
  import(dir: string, options: { initiatedBy: string }): void;
}

export async function startStorageReplacement(stateDir: string | null): Promise<EmulatorBackend> {
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
  if (dir && existsSync(`${dir}/buckets.json`)) layer.import(dir, { initiatedBy: 'launcher' });
  return {
    label: `firebase-tools' Storage emulator code, without its Java rules runtime, on ${HOST}:${PORTS.storage}`,
    async save() {
      if (!dir) return;
      const tmp = `${dir}.tmp`;
      rmSync(tmp, { recursive: true, force: true });
      mkdirSync(tmp, { recursive: true });
      await layer.export(tmp, { initiatedBy: 'launcher' });
      rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
    },
    async stop() {
      await EmulatorRegistry.stop('storage').catch(() => emulator.stop());
    },
  };
}
