import type { FulfilmentSettings, FulfilmentSettingsResponse } from '@bookstore/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { adminFetch } from './staff-api';
import { queryKeys } from '../../../lib/query-keys';

// The shop's fulfilment settings: pickup, local delivery, post and tax (issue 27; owner and manager).

// GET /api/admin/settings/fulfilment
export const fulfilmentQuery = () =>
  queryOptions({
    queryKey: queryKeys.adminFulfilment,
    queryFn: async () => (await adminFetch<FulfilmentSettingsResponse>('/api/admin/settings/fulfilment', { token: adminToken() })).settings,
  });

// PUT /api/admin/settings/fulfilment: the settings, the audit log and every checkout price change.
export function useSaveFulfilment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: FulfilmentSettings) =>
      adminFetch<FulfilmentSettingsResponse>('/api/admin/settings/fulfilment', { method: 'PUT', token: adminToken(), body: settings }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.adminFulfilment }),
        client.invalidateQueries({ queryKey: queryKeys.adminAudit }),
        client.invalidateQueries({ queryKey: queryKeys.quotes }),
      ]),
  });
}
