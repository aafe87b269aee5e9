import { AdminLoginSchema, type AdminLogin, type AdminLoginResponse, type AdminLogoutResponse, type AdminStats } from '@bookstore/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken, saveAdminSession } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// POST /api/auth/admin (validated with the API's own schema before it is sent)
export function adminLogin(login: AdminLogin) {
  return apiFetch<AdminLoginResponse>('/api/auth/admin', { method: 'POST', body: AdminLoginSchema.parse(login) });
}

/** Signs in and keeps the token for as long as the server says it lasts; figures of an earlier session are dropped. */
export function useAdminLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminLogin,
    onSuccess: ({ token, expiresIn }) => {
      saveAdminSession(token, expiresIn);
      queryClient.removeQueries({ queryKey: queryKeys.adminStats });
      queryClient.removeQueries({ queryKey: queryKeys.adminOrders });
      // Another person may sign in on this browser: their name, role and rights are read afresh.
      for (const key of [queryKeys.adminMe, queryKeys.adminStaff, queryKeys.adminAudit]) queryClient.removeQueries({ queryKey: key });
    },
  });
}

/** Ends the token on the server too (every copy of it stops working); the caller clears it locally. */
export function adminLogout(token: string) {
  return apiFetch<AdminLogoutResponse>('/api/auth/admin/logout', { method: 'POST', token, timeoutMs: 5_000 });
}

// GET /api/admin
export const statsQuery = () =>
  queryOptions({ queryKey: queryKeys.adminStats, queryFn: () => apiFetch<AdminStats>('/api/admin', { token: adminToken() }) });
