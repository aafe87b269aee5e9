import { DEFAULT_TILL_ID, TillIdSchema, type GiftCardReserveResponse } from '@bookstore/contract';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';

// This device's till (issue 55): its id, a device setting kept in localStorage (default 'till-1'),
// sent with every sale and return; and the gift card codes the shop reserved for it, so it can sell
// a gift card while the shop cannot be reached (each code once; online, the shop makes the code).

const TILL_KEY = 'bookstore-till-id';
const CODES_KEY = 'bookstore-till-codes';
/** Codes kept for selling offline: topped up to this many while online. */
export const KEEP_RESERVED = 5;

export function readTillId(): string {
  const stored = TillIdSchema.safeParse(globalThis.localStorage?.getItem(TILL_KEY) ?? '');
  return stored.success ? stored.data : DEFAULT_TILL_ID;
}

/** Saves a typed till id ('Till 2' -> 'till-2'); the problem's text when it cannot be one. */
export function writeTillId(typed: string): { tillId: string } | { problem: string } {
  const parsed = TillIdSchema.safeParse(typed.trim().toLowerCase().replace(/\s+/g, '-'));
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'Not a till id' };
  localStorage.setItem(TILL_KEY, parsed.data);
  return { tillId: parsed.data };
}

interface KeptCodes {
  tillId: string;
  codes: string[];
}

function keptCodes(tillId: string): string[] {
  try {
    const kept = JSON.parse(localStorage.getItem(CODES_KEY) ?? 'null') as KeptCodes | null;
    return kept?.tillId === tillId && Array.isArray(kept.codes) ? kept.codes.filter((c) => typeof c === 'string') : [];
  } catch {
    return [];
  }
}

const keep = (tillId: string, codes: string[]) => localStorage.setItem(CODES_KEY, JSON.stringify({ tillId, codes } satisfies KeptCodes));

/** How many reserved codes this till has left. */
export const reservedLeft = (tillId: string) => keptCodes(tillId).length;

/** Takes `count` reserved codes for a sale made offline, or null when too few are left (none taken). */
export function takeReservedCodes(tillId: string, count: number): string[] | null {
  const codes = keptCodes(tillId);
  if (codes.length < count) return null;
  keep(tillId, codes.slice(count));
  return codes.slice(0, count);
}

/** Online: asks the shop for codes until KEEP_RESERVED are kept for this till (POST /api/admin/gift-cards/reserve). */
export async function topUpReservedCodes(tillId: string): Promise<void> {
  const have = keptCodes(tillId);
  if (have.length >= KEEP_RESERVED) return;
  const { codes } = await apiFetch<GiftCardReserveResponse>('/api/admin/gift-cards/reserve', { method: 'POST', token: adminToken(), body: { count: KEEP_RESERVED - have.length, tillId } });
  keep(tillId, [...keptCodes(tillId), ...codes]);
}
