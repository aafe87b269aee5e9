import { DEFAULT_FULFILMENT, DEFAULT_SHOP_SETTINGS, FulfilmentSettingsSchema, ShopSettingsSchema, upgradeFulfilment, type FulfilmentSettings, type ShopSettings } from '@bookstore/contract';
import type { DocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { logger } from 'firebase-functions';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { appendAudit, changedFields, type AuditActor } from './audit.repo';

// The shop's settings, settings/shop: whether owners and managers must use two-factor sign-in
// (`requireTotp`, owner only), and how the shop gets books to its customers, with postage and tax
// (`fulfilment`, owner and manager; issue 27). One document, each part saved on its own.

export const settingsRef = () => db().collection('settings').doc('shop');

/** Stored settings over the defaults; a field that does not parse falls back to its default. */
export function settingsFrom(snap: DocumentSnapshot | undefined): ShopSettings {
  const parsed = ShopSettingsSchema.partial().safeParse(snap?.exists ? snap.data() : {});
  return { ...DEFAULT_SHOP_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

export async function readSettings(): Promise<ShopSettings> {
  const snap = await settingsRef().get();
  countReads(1);
  return settingsFrom(snap);
}

/** Saves the settings and their audit event in one transaction. */
export async function saveSettings(actor: AuditActor, next: ShopSettings): Promise<ShopSettings> {
  return db().runTransaction(async (tx) => {
    const before = settingsFrom(await tx.get(settingsRef()));
    tx.set(settingsRef(), next, { merge: true });
    appendAudit(tx, actor, { action: 'settings.update', target: 'settings/shop', changes: changedFields(before, next, Object.keys(next)) });
    return next;
  });
}

// --- Fulfilment (issue 27) ----------------------------------------------------------------------

/**
 * The stored fulfilment settings, or the defaults (cash on delivery anywhere, nothing added) when
 * none were saved. Stored ones were parsed when saved. Settings saved before issue 36 name countries
 * as typed ('USA'): they are read as codes (`upgradeFulfilment`, failing closed), with a warning
 * until scripts/lib/migrate-places.ts has stored the upgrade. One that still does not parse (a hand
 * edit) is logged and the defaults apply, rather than a checkout that answers 500.
 */
export function fulfilmentFrom(snap: DocumentSnapshot | undefined): FulfilmentSettings {
  const stored = snap?.exists ? (snap.data() as { fulfilment?: unknown }).fulfilment : undefined;
  if (stored === undefined) return DEFAULT_FULFILMENT;
  const parsed = FulfilmentSettingsSchema.safeParse(stored);
  if (parsed.success) return parsed.data as FulfilmentSettings;
  const upgrade = upgradeFulfilment(stored);
  const upgraded = FulfilmentSettingsSchema.safeParse(upgrade.settings);
  if (upgraded.success) {
    warnOnce('settings/shop fulfilment names places as typed: read as codes until `npm run migrate-places` stores them', { changed: upgrade.changed.slice(0, 20), dropped: upgrade.dropped });
    return upgraded.data as FulfilmentSettings;
  }
  logger.error('settings/shop fulfilment does not parse: the defaults apply', { issues: upgraded.error.issues.slice(0, 5) });
  return DEFAULT_FULFILMENT;
}

const warned = new Set<string>();
function warnOnce(message: string, details: Record<string, unknown>) {
  const key = `${message}${JSON.stringify(details)}`;
  if (warned.has(key)) return;
  warned.add(key);
  logger.warn(message, details);
}

/** Read in `tx` when given: an order is priced with the settings its transaction saw. */
export async function readFulfilment(tx?: Transaction): Promise<FulfilmentSettings> {
  const snap = tx ? await tx.get(settingsRef()) : await settingsRef().get();
  countReads(1);
  return fulfilmentFrom(snap);
}

/** Replaces the fulfilment settings (the `fulfilment` field only) with one audit event, in one transaction. */
export async function saveFulfilment(actor: AuditActor, next: FulfilmentSettings): Promise<FulfilmentSettings> {
  return db().runTransaction(async (tx) => {
    const before = fulfilmentFrom(await tx.get(settingsRef()));
    tx.set(settingsRef(), { fulfilment: next }, { mergeFields: ['fulfilment'] });
    const changes = changedFields(before as unknown as Record<string, unknown>, next as unknown as Record<string, unknown>, Object.keys(next));
    appendAudit(tx, actor, { action: 'settings.update', target: 'settings/shop', changes: Object.fromEntries(Object.entries(changes).map(([k, v]) => [`fulfilment.${k}`, v])) });
    return next;
  });
}

export interface PlacesUpgrade {
  /** Nothing to do: no settings saved, or every place already a code. */
  alreadyCodes: boolean;
  changed: string[];
  dropped: string[];
  /** Whether the upgrade was stored (false on a dry run, or when there was nothing to do). */
  stored: boolean;
}

/**
 * Stores the fulfilment settings saved before issue 36 with codes for their places (what
 * `fulfilmentFrom` reads them as meanwhile), with one audit event naming `actor`, in one
 * transaction. Settings that already parse are left alone, so a second run writes nothing.
 */
export async function upgradeStoredPlaces(actor: AuditActor, options: { dryRun?: boolean } = {}): Promise<PlacesUpgrade> {
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(settingsRef());
    const stored = snap.exists ? (snap.data() as { fulfilment?: unknown }).fulfilment : undefined;
    if (stored === undefined || FulfilmentSettingsSchema.safeParse(stored).success) return { alreadyCodes: true, changed: [], dropped: [], stored: false };
    const upgrade = upgradeFulfilment(stored);
    const parsed = FulfilmentSettingsSchema.safeParse(upgrade.settings);
    if (!parsed.success) {
      throw new Error(`settings/shop fulfilment does not parse even with codes: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}. Fix it on the Settings page.`);
    }
    const result = { alreadyCodes: false, changed: upgrade.changed, dropped: upgrade.dropped, stored: !options.dryRun };
    if (options.dryRun) return result;
    const next = parsed.data as FulfilmentSettings;
    tx.set(settingsRef(), { fulfilment: next }, { mergeFields: ['fulfilment'] });
    const changes = changedFields(stored as Record<string, unknown>, next as unknown as Record<string, unknown>, Object.keys(next));
    appendAudit(tx, actor, { action: 'settings.update', target: 'settings/shop', changes: Object.fromEntries(Object.entries(changes).map(([k, v]) => [`fulfilment.${k}`, v])) });
    return result;
  });
}
