import { createApiHandler } from '../app';
import { loadSdks } from '../lib/firebase';

// The `api` function's code (lib/api.js): every /api/** route but the search (index.ts, lib/served.ts).
// It verifies customers' tokens and serves covers: those SDKs load as the instance starts.
loadSdks({ auth: true, storage: true });
export default createApiHandler();
