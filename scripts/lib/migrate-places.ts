import type { PlacesUpgrade } from '../../functions/src/admin/settings.repo';

// Issue 36 made places codes (ISO 3166-1 alpha-2 countries, ISO 3166-2 regions). A shop's fulfilment
// settings saved before name them as typed ('USA', 'United States', 'Canada'); the function reads
// them as codes meanwhile (settings.repo.ts fulfilmentFrom, with a warning in the log), and this
// stores that reading, with one audit event, so the Settings page shows and saves codes:
//   - the launcher runs it on the local emulators' data at every start (a no-op once done);
//   - an operator runs `npm run migrate-places -- --project <id> [--dry-run]` once on a deployed shop.
// Places that cannot be read ('Untied States') are dropped and reported: they reach no one, and a
// courier country that cannot be read turns local delivery off, never on for every country.
// Orders keep the country their shopper typed: the order pages show it as it was.

/** Who the audit log names for the change: whoever holds the project's credentials, an owner's power. */
export const MIGRATION_ACTOR = { username: 'npm-run-migrate-places', role: 'owner' } as const;

/** Needs firebase-admin initialised first (the repo's db() reuses the app). */
export async function migratePlaces(options: { dryRun?: boolean } = {}): Promise<PlacesUpgrade> {
  const { upgradeStoredPlaces } = await import('../../functions/src/admin/settings.repo');
  return upgradeStoredPlaces(MIGRATION_ACTOR, options);
}

export function describeUpgrade(report: PlacesUpgrade): string[] {
  if (report.alreadyCodes) return ['Fulfilment settings: every place is already a code (or none saved); nothing to do.'];
  return [
    `Fulfilment settings: ${report.changed.length} places rewritten as codes, ${report.dropped.length} dropped${report.stored ? '' : ' (dry run: nothing stored)'}.`,
    ...report.changed.map((c) => `  rewritten: ${c}`),
    ...report.dropped.map((d) => `  DROPPED: ${d} (choose it again on the Settings page if it was meant)`),
  ];
}
