import { buttonClass } from '../../components/ui/button';
import { useState, type FormEvent } from 'react';
import { OTP_REQUIRED } from '@bookstore/contract';
import { Navigate, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../lib/use-page-title';
import { Logo } from '../../components/ui/icons';
import { OfflineNotice } from '../../components/ui/offline-notice';
import { useOnline } from '../../lib/use-online';
import { ApiError } from '../../lib/api-client';
import { adminToken } from '../../lib/admin-session';
import { useAdminLogin } from './api/admin-api';

export function Component() {
  usePageTitle('Admin Dashboard Login');
  const navigate = useNavigate();
  const login = useAdminLogin();
  const busy = login.isPending;
  const online = useOnline();
  // Two-factor sign-in (issue 24): once the server answers OTP_REQUIRED, the form also asks for the code.
  const [otpAsked, setOtpAsked] = useState(false);
  if (adminToken() && !login.isSuccess) return <Navigate to="/dashboard" replace />;
  const otpError = login.error instanceof ApiError && login.error.body?.code === OTP_REQUIRED ? login.error.message : null;
  // Any other failure reads as the spec's line; a throttled sign-in (429) also says when to try again.
  const error = login.isError && !otpError ? (login.error instanceof ApiError && login.error.status === 429 ? login.error.message : '') : null;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const otp = String(form.get('otp') ?? '').replace(/\s/g, '');
    login.mutate(
      { username: String(form.get('username') ?? ''), password: String(form.get('password') ?? ''), ...(otp ? { otp } : {}) },
      {
        onSuccess: () => navigate('/dashboard'),
        onError: (e) => {
          if (e instanceof ApiError && e.body?.code === OTP_REQUIRED) setOtpAsked(true);
        },
      },
    );
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-gray-50 px-4">
      <div className="w-full max-w-sm rounded-lg bg-white px-8 pb-8 pt-6 shadow-md ring-1 ring-gray-100">
        <div className="mb-4 flex items-center gap-2"><Logo className="size-8" /><span className="font-semibold text-secondary">Bookstore</span></div>
        <h1 className="mb-4 text-xl font-semibold">Admin Dashboard Login</h1>
        <form onSubmit={submit}>
          <div className="mb-4">
            <label className="mb-2 block text-sm font-bold text-gray-700" htmlFor="username">Username</label>
            <input id="username" name="username" required autoComplete="username" placeholder="username" className="w-full rounded border border-gray-300 px-3 py-2 shadow-sm focus:outline-2 focus:outline-accent" />
          </div>
          <div className="mb-4">
            <label className="mb-2 block text-sm font-bold text-gray-700" htmlFor="password">Password</label>
            <input id="password" name="password" type="password" required autoComplete="current-password" placeholder="Password" className="w-full rounded border border-gray-300 px-3 py-2 shadow-sm focus:outline-2 focus:outline-accent" />
          </div>
          {otpAsked && (
            <div className="mb-4">
              <label className="mb-2 block text-sm font-bold text-gray-700" htmlFor="otp">Authentication code</label>
              <input id="otp" name="otp" required inputMode="numeric" pattern="[0-9 ]{6,7}" maxLength={7} autoComplete="one-time-code" autoFocus placeholder="123456" className="w-full rounded border border-gray-300 px-3 py-2 tracking-widest shadow-sm focus:outline-2 focus:outline-accent" />
              {otpError && <p role="alert" className="mt-2 text-sm text-gray-700">{otpError}</p>}
            </div>
          )}
          {error !== null && (
            <div role="alert" className="mb-3 text-sm">
              <p className="italic text-danger">Please enter valid Email and Password.</p>
              {error && <p className="text-gray-700">{error}</p>}
            </div>
          )}
          <OfflineNotice className="mb-3" />
          <button disabled={busy || !online} className={buttonClass('primary', 'md', 'w-full')}>
            {busy ? 'Signing in...' : 'Login'}
          </button>
        </form>
        <p className="mt-5 text-center text-xs text-gray-600">&copy;{new Date().getFullYear()} Book Store. All rights reserved.</p>
      </div>
    </main>
  );
}
