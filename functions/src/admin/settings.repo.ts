import { DEFAULT_SHOP_SETTINGS, ShopSettingsSchema, type ShopSettings } from '@bookstore/contract';
import type { DocumentSnapshot } from 'firebase-admin/firestore';
import { db } from '../lib/firebase';
import { countReads } from '../lib/read-counter';
import { appendAudit, changedFields, type AuditActor } from './audit.repo';

// The shop's settings, settings/shop: for now whether owners and managers must use two-factor sign-in.

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
