import {
  REAUTH_REQUIRED, readErrorBody, can, type AuditAction, type AuditPage, type Me, type Permission, type StaffCreate, type StaffMember, type StaffMutationResponse, type ShopSettings, type StaffPatch, type TotpEnrolment,
} from '@bookstore/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { ApiError, apiFetch, type RequestOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// Staff accounts, the signed-in person's profile and two-factor setup, and the audit log (issue 24).

// GET /api/admin/me
export const meQuery = () =>
  queryOptions({ queryKey: queryKeys.adminMe, queryFn: () => adminFetch<Me>('/api/admin/me', { token: adminToken() }), staleTime: 60_000 });

/** The signed-in person and a `can` that asks the same policy table as the server (contract/src/staff.ts). */
export function useMe() {
  const me = useQuery(meQuery());
  const allows = (permission: Permission) => (me.data ? !me.data.totpSetupRequired && can(me.data.role, permission) : false);
  return { ...me, can: allows };
}

// GET /api/admin/staff
export const staffQuery = () =>
  queryOptions({ queryKey: queryKeys.adminStaff, queryFn: () => adminFetch<StaffMember[]>('/api/admin/staff', { token: adminToken() }) });

function useStaffWrite<V>(send: (value: V) => Promise<StaffMutationResponse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.adminStaff });
      void client.invalidateQueries({ queryKey: queryKeys.adminAudit });
    },
  });
}

// POST /api/admin/staff
export const useCreateStaff = () =>
  useStaffWrite((input: StaffCreate) => adminFetch<StaffMutationResponse>('/api/admin/staff', { method: 'POST', token: adminToken(), body: input }));

// PATCH /api/admin/staff/:username
export const useUpdateStaff = () =>
  useStaffWrite(({ username, patch }: { username: string; patch: StaffPatch }) =>
    adminFetch<StaffMutationResponse>(`/api/admin/staff/${encodeURIComponent(username)}`, { method: 'PATCH', token: adminToken(), body: patch }));

// DELETE /api/admin/staff/:username
export const useDeleteStaff = () =>
  useStaffWrite((username: string) => adminFetch<StaffMutationResponse>(`/api/admin/staff/${encodeURIComponent(username)}`, { method: 'DELETE', token: adminToken() }));

// GET /api/admin/audit?actor=&action=&cursor=
export const auditQuery = (filters: { actor?: string; action?: AuditAction | '' }) =>
  infiniteQueryOptions({
    queryKey: [...queryKeys.adminAudit, filters.actor ?? '', filters.action ?? ''],
    initialPageParam: '',
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams();
      if (filters.actor) params.set('actor', filters.actor);
      if (filters.action) params.set('action', filters.action);
      if (pageParam) params.set('cursor', pageParam);
      return adminFetch<AuditPage>(`/api/admin/audit?${params}`, { token: adminToken() });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

function useTotpWrite<V, R>(send: (value: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.adminMe }) });
}

// POST /api/admin/me/totp
export const useStartTotp = () => useTotpWrite(() => adminFetch<TotpEnrolment>('/api/admin/me/totp', { method: 'POST', token: adminToken() }));
// POST /api/admin/me/totp/confirm
export const useConfirmTotp = () =>
  useTotpWrite((otp: string) => adminFetch<{ message: string }>('/api/admin/me/totp/confirm', { method: 'POST', token: adminToken(), body: { otp } }));
// DELETE /api/admin/me/totp
export const useDisableTotp = () =>
  useTotpWrite((otp: string) => adminFetch<{ message: string }>('/api/admin/me/totp', { method: 'DELETE', token: adminToken(), body: { otp } }));

// GET /api/admin/settings (owner)
export const settingsQuery = () =>
  queryOptions({ queryKey: [...queryKeys.adminMe, 'settings'], queryFn: () => adminFetch<ShopSettings>('/api/admin/settings', { token: adminToken() }) });

// PUT /api/admin/settings (owner): who must use two-factor sign-in changes, so /me is read again
export const useSaveSettings = () =>
  useTotpWrite((settings: ShopSettings) => adminFetch<ShopSettings>('/api/admin/settings', { method: 'PUT', token: adminToken(), body: settings }));

// ---- Re-entering the password (issue 36) ------------------------------------------------------

// Sensitive admin actions (issue 36) answer 401 REAUTH_REQUIRED when the session has not proved
// itself in the last 5 minutes. The dashboard registers a prompt (features/admin/components/
// reauth-dialog.tsx) that asks for the password (and code) and records the proof; `adminFetch`
// then sends the action again, once. The dashboard's api modules that reach sensitive routes use
// adminFetch; the storefront keeps plain apiFetch. Here rather than in a module of its own: a new
// shared chunk would be one more name in every page's preload map, and the home page's first load
// sits at its 120 KB budget (web/src/bundle-budget.test.ts).

type Prompt = () => Promise<boolean>;
let prompt: Prompt | null = null;
let asking: Promise<boolean> | null = null;

/** The dashboard's dialog, while it is mounted (null to remove it). */
export function setReauthPrompt(next: Prompt | null): void {
  prompt = next;
}

/** Asks the person once, however many requests were refused at the same moment; true when they confirmed. */
export function askToReauth(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  asking ??= prompt().finally(() => {
    asking = null;
  });
  return asking;
}

/** A 401 that asks for a fresh proof (read from a status and an already parsed JSON body). */
export function isReauthRequired(status: number | undefined, body: unknown): boolean {
  return status === 401 && readErrorBody(body).code === REAUTH_REQUIRED;
}

/** apiFetch for the dashboard: a 401 REAUTH_REQUIRED asks the person (once) and sends the request again, once. */
export async function adminFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await apiFetch<T>(path, options);
  } catch (error) {
    if (!options.token || !(error instanceof ApiError) || !isReauthRequired(error.status, error.body)) throw error;
    if (!(await askToReauth())) throw error;
    return apiFetch<T>(path, options);
  }
}
