import type { CounterSettingsResponse } from '@bookstore/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { queryKeys } from '../../../lib/query-keys';
import { adminFetch } from './staff-api';

// What a bookseller may issue or pay out at the counter per till and day before a manager approves (issue 55; owner and manager).

// GET /api/admin/settings/counter
export const counterSettingsQuery = () =>
  queryOptions({
    queryKey: queryKeys.adminCounterSettings,
    queryFn: () => adminFetch<CounterSettingsResponse>('/api/admin/settings/counter', { token: adminToken() }),
  });

// PUT /api/admin/settings/counter {allowance}
export function useSaveCounterSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (allowance: string) => adminFetch<CounterSettingsResponse>('/api/admin/settings/counter', { method: 'PUT', token: adminToken(), body: { allowance } }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: queryKeys.adminCounterSettings }), client.invalidateQueries({ queryKey: queryKeys.adminAudit })]),
  });
}
