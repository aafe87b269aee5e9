import type { Shift, ShiftResponse } from '@bookstore/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// The till's shifts (issue 57; docs/api.md "Shifts at the till").

// GET /api/admin/shifts/open?tillId=
export const openShiftQuery = (tillId: string) =>
  queryOptions({
    queryKey: [...queryKeys.adminShifts, 'open', tillId],
    queryFn: ({ signal }) => apiFetch<{ shift: Shift | null }>(`/api/admin/shifts/open?tillId=${encodeURIComponent(tillId)}`, { token: adminToken(), signal }).then((r) => r.shift),
  });

// GET /api/admin/shifts?date=
export const dayShiftsQuery = (date: string) =>
  queryOptions({
    queryKey: [...queryKeys.adminShifts, 'day', date],
    queryFn: ({ signal }) => apiFetch<{ shifts: Shift[] }>(`/api/admin/shifts?date=${date}`, { token: adminToken(), signal }).then((r) => r.shifts),
  });

// GET /api/admin/shifts/:id/z-report?format= | /api/admin/shifts/z-report?date=&format=: a shift's or a day's Z-report, printed (till-print.ts), never cached.
export const zReportPath = (of: { shiftId: string } | { date: string }, format: 'escpos' | 'html') =>
  'shiftId' in of ? `/api/admin/shifts/${encodeURIComponent(of.shiftId)}/z-report?format=${format}` : `/api/admin/shifts/z-report?date=${of.date}&format=${format}`;

/** A change to a shift (open, petty cash, close): the answer is the shift as it is now. */
export function useShiftChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ path, body }: { path: string; body: unknown }) => apiFetch<ShiftResponse>(path, { method: 'POST', token: adminToken(), body }).then((r) => r.shift),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.adminShifts }),
  });
}
