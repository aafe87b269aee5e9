import { logger } from 'firebase-functions/logger';
import { buildSearchSnapshots } from '../books/search-build';
import { loadSdks } from '../lib/firebase';

// The `buildSearchIndex` function's code (lib/build-search-index.js): a write to meta/catalog (the
// catalogue version moved, or a `search` instance asked for a snapshot) builds and publishes the
// search index off every request path (books/search-build.ts). The event's content is not needed:
// the builder reads the version itself, so a late, repeated or lost event changes nothing.
loadSdks({ storage: true });

export default async function run(): Promise<void> {
  const outcome = await buildSearchSnapshots();
  if (outcome.skipped) logger.info('Search index build skipped', { why: outcome.skipped });
}
