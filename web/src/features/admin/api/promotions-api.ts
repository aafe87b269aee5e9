import type { Discount, DiscountCreate, DiscountsPage, GiftCard, GiftCardIssue, GiftCardMovement, IssuedGiftCard, RedemptionsPage } from '@bookstore/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { adminFetch } from './staff-api';

// Discount codes and gift cards (issue 40): owner and manager ('promotions.manage'). Writes go
// through adminFetch: they need a recent proof (issue 55), and a 401 REAUTH_REQUIRED opens the
// dashboard's password dialog and sends the request again once, as refunds do.

const KEYS = { discounts: ['admin', 'discounts'] as const, giftCards: ['admin', 'gift-cards'] as const };
const paged = (path: string, cursor: string) => `${path}${path.includes('?') ? '&' : '?'}${cursor ? `cursor=${encodeURIComponent(cursor)}` : ''}`;

export const discountsQuery = () =>
  infiniteQueryOptions({
    queryKey: KEYS.discounts,
    initialPageParam: '',
    queryFn: ({ pageParam }) => apiFetch<DiscountsPage>(paged('/api/admin/discounts', pageParam), { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const redemptionsQuery = (code: string) =>
  queryOptions({
    queryKey: [...KEYS.discounts, code, 'redemptions'],
    queryFn: () => apiFetch<RedemptionsPage>(`/api/admin/discounts/${encodeURIComponent(code)}/redemptions?limit=50`, { token: adminToken() }),
  });

export function useCreateDiscount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: DiscountCreate) => adminFetch<{ discount: Discount }>('/api/admin/discounts', { method: 'POST', token: adminToken(), body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS.discounts }),
  });
}

export function usePauseDiscount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ code, paused }: { code: string; paused: boolean }) =>
      adminFetch<{ discount: Discount }>(`/api/admin/discounts/${encodeURIComponent(code)}`, { method: 'PATCH', token: adminToken(), body: { paused } }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS.discounts }),
  });
}

export const giftCardsQuery = () =>
  infiniteQueryOptions({
    queryKey: KEYS.giftCards,
    initialPageParam: '',
    queryFn: ({ pageParam }) => apiFetch<{ giftCards: GiftCard[]; nextCursor: string | null }>(paged('/api/admin/gift-cards', pageParam), { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const giftCardQuery = (id: string) =>
  queryOptions({
    queryKey: [...KEYS.giftCards, id],
    queryFn: () => apiFetch<{ giftCard: GiftCard; ledger: GiftCardMovement[] }>(`/api/admin/gift-cards/${id}?limit=50`, { token: adminToken() }),
  });

export function useIssueGiftCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: GiftCardIssue) => adminFetch<IssuedGiftCard>('/api/admin/gift-cards', { method: 'POST', token: adminToken(), body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS.giftCards }),
  });
}

// POST /api/admin/gift-cards/:id/void (issue 55): the card's balance to 0; the list, the card's
// ledger and the overview's liability change.
export function useVoidGiftCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => adminFetch<{ message: string; giftCard: GiftCard }>(`/api/admin/gift-cards/${id}/void`, { method: 'POST', token: adminToken() }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: KEYS.giftCards }), client.invalidateQueries({ queryKey: queryKeys.adminStats })]),
  });
}
