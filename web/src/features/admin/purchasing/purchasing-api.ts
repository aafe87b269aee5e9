import type {
  DayMargin, PurchaseOrder, PurchaseOrdersPage, PurchaseOrderStatus, Receipt, ReorderSuggestion, StockValuation, Supplier, SupplierCreate, SupplierReturn,
  UnlistedBook,
} from '@bookstore/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { queryKeys } from '../../../lib/query-keys';
import { adminFetch } from '../api/staff-api';

// Buying (issue 56): suppliers, purchase orders and their suggestions, the stock's value and returns
// (owner and manager: 'purchasing.manage'), receiving (every role: 'stock.receive').

const KEYS = {
  suppliers: [...queryKeys.adminPurchasing, 'suppliers'] as const,
  orders: [...queryKeys.adminPurchasing, 'orders'] as const,
  suggestions: [...queryKeys.adminPurchasing, 'suggestions'] as const,
  valuation: [...queryKeys.adminPurchasing, 'valuation'] as const,
  margin: (date: string) => [...queryKeys.adminPurchasing, 'margin', date] as const,
  unlisted: [...queryKeys.adminPurchasing, 'unlisted'] as const,
};
const withCursor = (path: string, cursor: string) => (cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path);

/** GET /api/admin/suppliers, 100 a page (a shop deals with a few dozen). */
export const suppliersQuery = () =>
  infiniteQueryOptions({
    queryKey: KEYS.suppliers,
    initialPageParam: '',
    queryFn: ({ pageParam }) => adminFetch<{ suppliers: Supplier[]; nextCursor: string | null }>(withCursor('/api/admin/suppliers?limit=100', pageParam), { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** GET /api/admin/purchase-orders?status= : newest first. */
export const purchaseOrdersQuery = (status: PurchaseOrderStatus) =>
  infiniteQueryOptions({
    queryKey: [...KEYS.orders, status],
    initialPageParam: '',
    queryFn: ({ pageParam }) => adminFetch<PurchaseOrdersPage>(withCursor(`/api/admin/purchase-orders?status=${status}`, pageParam), { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const suggestionsQuery = () =>
  queryOptions({ queryKey: KEYS.suggestions, queryFn: () => adminFetch<{ suggestions: ReorderSuggestion[] }>('/api/admin/reorder-suggestions', { token: adminToken() }) });

export const valuationQuery = () =>
  queryOptions({ queryKey: KEYS.valuation, queryFn: () => adminFetch<StockValuation>('/api/admin/stock/valuation', { token: adminToken() }) });

/** GET /api/admin/unlisted-books: books received that the catalogue does not list (every receiving role). */
export const unlistedBooksQuery = () =>
  infiniteQueryOptions({
    queryKey: KEYS.unlisted,
    initialPageParam: '',
    queryFn: ({ pageParam }) => adminFetch<{ unlistedBooks: UnlistedBook[]; nextCursor: string | null }>(withCursor('/api/admin/unlisted-books?limit=20', pageParam), { token: adminToken() }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** GET /api/admin/stock/margin: the day's gross margin, web and counter apart (owner, manager). */
export const marginQuery = (date: string) =>
  queryOptions({ queryKey: KEYS.margin(date), queryFn: () => adminFetch<DayMargin>(`/api/admin/stock/margin?date=${date}`, { token: adminToken() }) });

export function useCreateSupplier() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<SupplierCreate>) => adminFetch<{ supplier: Supplier }>('/api/admin/suppliers', { method: 'POST', token: adminToken(), body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS.suppliers }),
  });
}

export interface PurchaseOrderDraft {
  supplierId: string;
  lines: { isbn: string; quantity: number; unitCost: string }[];
  note?: string;
}

export function useCreatePurchaseOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: PurchaseOrderDraft) => adminFetch<{ purchaseOrder: PurchaseOrder }>('/api/admin/purchase-orders', { method: 'POST', token: adminToken(), body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.adminPurchasing }),
  });
}

/** POST /api/admin/purchase-orders/:id/send or /cancel. */
export function useMovePurchaseOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to }: { id: string; to: 'send' | 'cancel' }) =>
      adminFetch<{ message: string; purchaseOrder: PurchaseOrder }>(`/api/admin/purchase-orders/${encodeURIComponent(id)}/${to}`, { method: 'POST', token: adminToken(), body: {} }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.adminPurchasing }),
  });
}

/** GET /api/admin/purchase-orders/:id/csv, saved as a file. */
export async function downloadPurchaseOrderCsv(id: string): Promise<void> {
  const res = await fetch(`/api/admin/purchase-orders/${encodeURIComponent(id)}/csv`, { headers: { Authorization: `Bearer ${adminToken() ?? ''}` } });
  if (!res.ok) throw new Error(`The file could not be made (${res.status})`);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `purchase-order-${id}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

export interface ReceiptDraft {
  receiptId: string;
  purchaseOrderId?: string;
  lines: { isbn: string; quantity: number }[];
}

/** POST /api/admin/receipts: the same receiptId sent again is the same receipt (the server answers what it answered). */
export function useReceive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReceiptDraft) => adminFetch<{ message: string; receipt: Receipt }>('/api/admin/receipts', { method: 'POST', token: adminToken(), body: input }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.books }),
        client.invalidateQueries({ queryKey: queryKeys.adminPurchasing }),
        client.invalidateQueries({ queryKey: queryKeys.adminPreorders }),
        client.invalidateQueries({ queryKey: queryKeys.adminSpecialOrders }),
      ]),
  });
}

export interface ReturnDraft {
  returnId: string;
  supplierId: string;
  lines: { isbn: string; quantity: number }[];
  note?: string;
}

export function useReturnToSupplier() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ReturnDraft) => adminFetch<{ message: string; supplierReturn: SupplierReturn }>('/api/admin/supplier-returns', { method: 'POST', token: adminToken(), body: input }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.books }), client.invalidateQueries({ queryKey: queryKeys.adminPurchasing })]),
  });
}

/**
 * "2 for special orders, 1 pre-order, 3 to the shelf (1 unlisted: not in the catalogue yet)": where
 * a receipt's copies went. Unlisted copies are on the shelf but not for sale until the book is listed.
 */
export function whereCopiesWent(receipt: Receipt): string {
  const sum = (key: 'toSpecialOrders' | 'toPreorders' | 'toShelf') => receipt.lines.reduce((n, l) => n + l[key], 0);
  const [special, pre, shelf] = [sum('toSpecialOrders'), sum('toPreorders'), sum('toShelf')];
  const unlisted = receipt.lines.reduce((n, l) => n + (l.unlisted ? l.toShelf : 0), 0);
  const parts = [
    ...(special ? [`${special} for special orders`] : []),
    ...(pre ? [`${pre} ${pre === 1 ? 'pre-order' : 'pre-orders'}`] : []),
    `${shelf} to the shelf${unlisted ? ` (${unlisted} unlisted: not in the catalogue yet)` : ''}`,
  ];
  return parts.join(', ');
}
