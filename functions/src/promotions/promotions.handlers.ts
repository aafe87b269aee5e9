import type { Request, Response } from 'express';
import {
  DiscountCodeSchema, DiscountCreateSchema, DiscountPatchSchema, GIFT_CARD_TYPO, GiftCardBalanceRequestSchema, GiftCardIssueSchema, PromotionsPageQuerySchema, fromCents,
} from '@bookstore/contract';
import { clientAddress } from '../admin/client-address';
import { requirePermission, requireRecentProof } from '../lib/auth';
import { noStore } from '../lib/cache';
import { HttpError } from '../lib/http-error';
import { jsonBody, parseWith } from '../lib/validate';
import { takeSlot, type WindowLimit } from '../lib/window-limit';
import * as discounts from './discounts.repo';
import * as cards from './gift-cards.repo';

// Discount codes and gift cards (issue 40): staff routes under /api/admin (owner and manager:
// 'promotions.manage'), and the shopper's balance check.

const actorOf = (req: Request) => {
  const staff = requirePermission(req, 'promotions.manage');
  return { username: staff.username, role: staff.role };
};

/**
 * Routes that create value (a gift card, a discount code made or changed, a void) need a proof
 * from the last 5 minutes, as refunds do (issue 55; lib/auth.ts requireRecentProof): a stolen
 * token alone must not mint money. The permission first: a role that may not act hears 403.
 */
const provenActorOf = (req: Request) => {
  const actor = actorOf(req);
  requireRecentProof(req);
  return actor;
};

function codeParam(req: Request): string {
  const parsed = DiscountCodeSchema.safeParse(req.params.code);
  if (!parsed.success) throw new HttpError(404, 'Discount code not found');
  return parsed.data;
}

function giftCardIdParam(req: Request): string {
  const id = String(req.params.id ?? '');
  if (!/^[0-9a-f]{40}$/.test(id)) throw new HttpError(404, 'Gift card not found');
  return id;
}

// POST /api/admin/discounts
export async function createDiscount(req: Request, res: Response) {
  const actor = provenActorOf(req);
  const input = parseWith(DiscountCreateSchema, jsonBody(req));
  const discount = await discounts.createDiscount(actor, input);
  res.status(201).json({ message: 'Discount code created', discount });
}

// GET /api/admin/discounts?cursor=&limit=
export async function listDiscounts(req: Request, res: Response) {
  actorOf(req);
  const { limit, cursor } = parseWith(PromotionsPageQuerySchema, req.query);
  noStore(res);
  res.json(await discounts.listDiscounts(limit, cursor));
}

// PATCH /api/admin/discounts/:code {paused}
export async function patchDiscount(req: Request, res: Response) {
  const actor = provenActorOf(req);
  const code = codeParam(req);
  const { paused } = parseWith(DiscountPatchSchema, jsonBody(req));
  const discount = await discounts.setPaused(actor, code, paused);
  res.json({ message: paused ? 'Discount code paused' : 'Discount code resumed', discount });
}

// GET /api/admin/discounts/:code/redemptions?cursor=&limit=
export async function listRedemptions(req: Request, res: Response) {
  actorOf(req);
  const code = codeParam(req);
  const { limit, cursor } = parseWith(PromotionsPageQuerySchema, req.query);
  const discount = await discounts.getDiscount(code);
  if (!discount) throw new HttpError(404, 'Discount code not found');
  noStore(res);
  res.json(await discounts.listRedemptions(code, limit, cursor));
}

// POST /api/admin/gift-cards {amount, recipientEmail?}
export async function issueGiftCard(req: Request, res: Response) {
  const actor = provenActorOf(req);
  const { amount, recipientEmail } = parseWith(GiftCardIssueSchema, jsonBody(req));
  const issued = await cards.issueGiftCard(actor, { amountCents: amount, kind: 'issued', ...(recipientEmail ? { recipientEmail } : {}) });
  noStore(res);
  res.status(201).json(issued);
}

// POST /api/admin/gift-cards/:id/void: its balance to 0, a 'voided' ledger line, audited (issue 55)
export async function voidGiftCard(req: Request, res: Response) {
  const actor = provenActorOf(req);
  const card = await cards.voidGiftCard(actor, giftCardIdParam(req));
  noStore(res);
  res.json({ message: 'Gift card voided', giftCard: card });
}

// GET /api/admin/gift-cards?cursor=&limit=
export async function listGiftCards(req: Request, res: Response) {
  actorOf(req);
  const { limit, cursor } = parseWith(PromotionsPageQuerySchema, req.query);
  noStore(res);
  res.json(await cards.listGiftCards(limit, cursor));
}

// GET /api/admin/gift-cards/:id?cursor=&limit= (the card and a page of its ledger)
export async function giftCardDetail(req: Request, res: Response) {
  actorOf(req);
  const id = giftCardIdParam(req);
  const { limit, cursor } = parseWith(PromotionsPageQuerySchema, req.query);
  noStore(res);
  res.json(await cards.giftCardDetail(id, limit, cursor));
}

/**
 * Balance checks per client address (the last X-Forwarded-For entry: admin/client-address.ts) per minute.
 * A shopper checks a card or two; 10 a minute bounds a script guessing codes to 14,400 a day per
 * address against 2^75 codes (and the check symbol turns most guesses away before any read).
 */
export const BALANCE_CHECKS_PER_MINUTE = 10;
const BALANCE_LIMIT: WindowLimit = {
  collection: 'giftCardLookups', limit: BALANCE_CHECKS_PER_MINUTE, windowMs: 60_000,
  message: 'Too many gift card checks from your address. Try again in a minute.',
};

// POST /api/gift-cards/balance {code}
// The code in the body (issue 55): a URL path, where GET /api/gift-cards/:code/balance had it, is
// kept by Hosting's and Cloud Run's request logs.
export async function giftCardBalance(req: Request, res: Response) {
  await takeSlot(BALANCE_LIMIT, clientAddress(req)); // before the code is even parsed: typos count too
  const parsed = GiftCardBalanceRequestSchema.safeParse(jsonBody(req));
  if (!parsed.success) throw new HttpError(400, GIFT_CARD_TYPO, { code: 'GIFT_CARD_TYPO' });
  const card = await cards.readGiftCard(parsed.data.code);
  if (!card) throw new HttpError(404, 'This gift card does not exist', { code: 'GIFT_CARD_UNKNOWN' });
  noStore(res);
  res.json({ balance: fromCents(card.balanceCents), last4: card.last4 });
}
