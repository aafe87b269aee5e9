import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { FirestoreServer } from '@firestore-emulator/server';
import { GeoPoint, Timestamp, type Firestore } from 'firebase-admin/firestore';
import { adminDb } from './admin-sdk';
import { join } from 'node:path';
import type { BackendContext, EmulatorBackend } from './backend';
import { HOST, PORTS } from './env';

// The last resort where no Java or emulator jar exists: @firestore-emulator/server, an npm gRPC
// Firestore without security rules. It keeps data in memory and cannot load a snapshot back, so we
// save `state.toJSON()` to a file and restore it by writing every document again through firebase-admin.

type JsonField = { type: string; value: unknown };
interface JsonDocument {
  path: string;
  fields?: Record<string, JsonField>;
  collections?: Record<string, JsonCollection>;
}
interface JsonCollection {
  documents?: Record<string, JsonDocument & { metadata?: unknown }>;
}

async function startServer(): Promise<FirestoreServer> {
  const server = new FirestoreServer();
  // Its start() binds 0.0.0.0; keep the database on loopback.
  const grpc = (server as unknown as { server?: { bindAsync?: (addr: string, ...rest: unknown[]) => void } }).server;
  // A patch of the package's internals (decision 013): refuse to start if they moved.
  if (typeof grpc?.bindAsync !== 'function') throw new Error('@firestore-emulator/server changed: no server.bindAsync to keep it on loopback');
  const bindAsync = grpc.bindAsync.bind(grpc);
  grpc.bindAsync = (_addr: string, ...rest: unknown[]) => bindAsync(`${HOST}:${PORTS.firestore}`, ...rest);
  await server.start(PORTS.firestore);
  return server;
}

function fieldValue(db: Firestore, field: JsonField): unknown {
  const v = field.value as never;
  switch (field.type) {
    case 'string_value':
    case 'boolean_value':
    case 'integer_value':
    case 'double_value':
      return v;
    case 'null_value':
      return null;
    case 'timestamp_value': {
      const t = v as { seconds: number; nanos: number };
      return new Timestamp(Number(t.seconds), Number(t.nanos));
    }
    case 'bytes_value':
      return Buffer.from(v as string, 'base64');
    case 'reference_value':
      return db.doc(String(v).split('/documents/')[1] ?? String(v));
    case 'geo_point_value': {
      const g = v as { latitude: number; longitude: number };
      return new GeoPoint(g.latitude, g.longitude);
    }
    case 'array_value':
      return (v as JsonField[]).map((item) => fieldValue(db, item));
    case 'map_value':
      return Object.fromEntries(Object.entries(v as Record<string, JsonField>).map(([k, f]) => [k, fieldValue(db, f)]));
    default:
      throw new Error(`Unknown Firestore field type in snapshot: ${field.type}`);
  }
}

/** Every stored document as [path relative to /documents, fields], depth first. */
function* documentsIn(node: unknown): Generator<[string, Record<string, JsonField>]> {
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (typeof record.path === 'string' && record.fields && Object.keys(record.fields).length > 0) {
    const rel = record.path.split('/documents/')[1];
    if (rel) yield [rel, record.fields as Record<string, JsonField>];
  }
  for (const value of Object.values(record)) {
    if (value && typeof value === 'object') yield* documentsIn(value);
  }
}

async function restoreFirestore(file: string): Promise<number> {
  if (!existsSync(file)) return 0;
  const db = adminDb();
  let count = 0;
  let batch = db.batch();
  for (const [path, fields] of documentsIn(JSON.parse(readFileSync(file, 'utf8')))) {
    const data = Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, fieldValue(db, f)]));
    batch.set(db.doc(path), data);
    if (++count % 400 === 0) {
      await batch.commit();
      batch = db.batch();
    }
  }
  await batch.commit();
  return count;
}

export async function startFirestoreStandIn({ stateDir }: BackendContext): Promise<EmulatorBackend> {
  const server = await startServer();
  const file = stateDir && join(stateDir, 'firestore.json');
  const restored = file ? await restoreFirestore(file) : 0;
  let saved = '';
  return {
    label: `Firestore: stand-in, @firestore-emulator/server from npm, on ${HOST}:${PORTS.firestore} (no security rules; ${restored} documents restored)`,
    async save() {
      const json = JSON.stringify(server.state.toJSON());
      if (!file || json === saved) return;
      writeFileSync(`${file}.tmp`, json);
      renameSync(`${file}.tmp`, file); // a kill mid-save leaves the previous snapshot whole
      saved = json;
    },
    stop: async () => server.stop(),
  };
}
