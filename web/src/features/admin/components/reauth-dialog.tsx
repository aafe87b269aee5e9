import { OTP_REQUIRED, type ReauthResponse } from '@bookstore/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { adminToken } from '../../../lib/admin-session';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { setReauthPrompt } from '../api/staff-api';

// Sensitive actions (issue 36: staff accounts, roles, password and two-factor resets, two-factor
// setup, settings, the newsletter export, refunds) need a proof from the last 5 minutes. When one is
// refused for want of it, this dialog asks for the password (and the code when two-factor sign-in
// is on), records the proof (POST /api/auth/admin/reauth, through plain apiFetch: it is never retried),
// and adminFetch (api/staff-api.ts) sends the action again.

const field = 'w-full rounded border border-gray-300 px-3 py-2 focus:outline-2 focus:outline-accent';

/**
 * Mounted once by the dashboard's layout, from its first render: shows itself when a request asks.
 * It does not wait for the person's profile (`totpEnabled` is false until it comes): a page's form
 * can be sent before then, and with no prompt registered a refused action only said 'Confirm your
 * password to continue' (seen under load in reauth.spec.ts). A code is asked for when the server
 * says it is needed, whatever `totpEnabled` said.
 */
export function ReauthDialog({ totpEnabled }: { totpEnabled: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const totp = useRef(totpEnabled);
  const settle = useRef<((confirmed: boolean) => void) | null>(null);
  const [open, setOpen] = useState(false);
  const [askCode, setAskCode] = useState(totpEnabled);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const client = useQueryClient();

  useEffect(() => {
    setReauthPrompt(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current = resolve;
          setProblem('');
          setAskCode(totp.current);
          setOpen(true);
        }),
    );
    return () => setReauthPrompt(null);
  }, []);

  useEffect(() => {
    totp.current = totpEnabled;
  }, [totpEnabled]);

  useEffect(() => {
    const el = dialog.current;
    if (open && el && !el.open) el.showModal();
    if (!open && el?.open) el.close();
  }, [open]);

  const finish = (confirmed: boolean) => {
    setOpen(false);
    settle.current?.(confirmed);
    settle.current = null;
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password') ?? '');
    const otp = String(form.get('otp') ?? '').replace(/\s/g, '');
    setBusy(true);
    setProblem('');
    try {
      await apiFetch<ReauthResponse>('/api/auth/admin/reauth', { method: 'POST', token: adminToken(), body: { password, ...(otp ? { otp } : {}) } });
      void client.invalidateQueries({ queryKey: queryKeys.adminAudit });
      finish(true);
    } catch (error) {
      if (error instanceof ApiError && error.body?.code === OTP_REQUIRED) setAskCode(true);
      setProblem(error instanceof Error ? error.message : 'Could not confirm');
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby="reauth-heading"
      aria-describedby="reauth-text"
      // Esc (the dialog's cancel) backs out: the action stays undone and says why.
      onCancel={(e) => {
        e.preventDefault();
        finish(false);
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(28rem,calc(100vw-2rem))] overflow-auto rounded-lg bg-white p-0 shadow-xl backdrop:bg-black/40"
    >
      {open && (
        <form onSubmit={(e) => void submit(e)} className="space-y-4 p-5 sm:p-6">
          <h2 id="reauth-heading" className="text-xl font-semibold">Confirm It Is You</h2>
          <p id="reauth-text" className="text-gray-700">
            {askCode ? 'This action needs your password and the current code from your authenticator app.' : 'This action needs your password again.'}
          </p>
          <div className="space-y-1">
            <label htmlFor="reauth-password" className="block text-sm font-bold text-gray-700">Password</label>
            <input id="reauth-password" name="password" type="password" required autoComplete="current-password" autoFocus className={field} />
          </div>
          {askCode && (
            <div className="space-y-1">
              <label htmlFor="reauth-otp" className="block text-sm font-bold text-gray-700">Code from your app</label>
              <input id="reauth-otp" name="otp" required inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" maxLength={7} className={`${field} tracking-widest`} />
            </div>
          )}
          {problem && <p role="alert" className="text-sm text-danger">{problem}</p>}
          <div className="flex flex-wrap justify-end gap-3">
            <button type="button" onClick={() => finish(false)} className={buttonClass('secondary', 'md')}>Cancel</button>
            <button type="submit" disabled={busy} className={buttonClass('primary', 'md')}>{busy ? 'Confirming...' : 'Confirm'}</button>
          </div>
        </form>
      )}
    </dialog>
  );
}
