import { buttonClass, textLink } from '../../components/ui/button';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { GoogleIcon } from '../../components/ui/icons';
import { OfflineNotice } from '../../components/ui/offline-notice';
import { useHydrated } from '../../lib/use-hydrated';
import { useOnline } from '../../lib/use-online';
import { useTypedBeforeStart } from '../../lib/use-typed-before-start';
import { authErrorMessage } from './auth-errors';
import { authSdk, useAuth } from '../../lib/auth/auth-context';

interface AuthFormProps {
  mode: 'login' | 'register';
  onSuccess: () => void;
}

const TEXT = {
  login: { title: 'Please Login', submit: 'Login', prompt: 'Haven\u2019t an account? Please', link: '/register', linkText: 'Register' },
  register: { title: 'Please Register', submit: 'Register', prompt: 'Have an account? Please', link: '/login', linkText: 'Login' },
};

/** The login and register card: email and password, the Google button, the spec's inline error. */
export function AuthForm({ mode, onSuccess }: AuthFormProps) {
  const auth = useAuth();
  const text = TEXT[mode];
  // Disabled until hydrated, but a browser may fill the served fields (autofill, a reload): kept (issue 60).
  const [email, setEmail] = useTypedBeforeStart('email');
  const [password, setPassword] = useTypedBeforeStart('password');
  const [error, setError] = useState<{ detail: string; google?: boolean } | null>(null);
  const emailSignIn = useMutation({
    mutationFn: async () => {
      const sdk = await authSdk();
      await (mode === 'login' ? sdk.signIn(email, password) : sdk.register(email, password));
    },
    onSuccess,
    onError: (err) => {
      console.error('Email sign-in failed', err);
      setError({ detail: authErrorMessage(err) });
    },
  });
  const busy = emailSignIn.isPending;
  const online = useOnline();
  const hydrated = useHydrated();
  const [reset, setReset] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => auth.require(), [auth]); // warm the auth SDK while the visitor types

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    emailSignIn.mutate();
  };

  // 'Forgot password?': Firebase Auth sends the reset link to the address typed above. The answer is
  // the same whether or not an account exists, so the form does not tell who has one.
  const forgot = async () => {
    setError(null);
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) {
      setReset({ ok: false, text: 'Enter your email address above, then choose ‘Forgot password?’ again.' });
      return;
    }
    try {
      await (await authSdk()).resetPassword(email.trim());
      setReset({ ok: true, text: `If an account exists for ${email.trim()}, we have sent it a link to reset the password.` });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'auth/user-not-found') {
        setReset({ ok: true, text: `If an account exists for ${email.trim()}, we have sent it a link to reset the password.` });
      } else {
        console.error('Password reset failed', err);
        setReset({ ok: false, text: authErrorMessage(err) });
      }
    }
  };

  const google = async () => {
    setError(null);
    try {
      await (await authSdk()).signInWithGoogle();
      onSuccess();
    } catch (err) {
      console.error('Google sign-in failed', err);
      setError({ detail: authErrorMessage(err), google: true });
    }
  };

  return (
    <div className="flex min-h-[calc(100vh-220px)] items-center justify-center py-10">
      <div className="w-full max-w-sm rounded-lg bg-white px-8 pb-8 pt-6 shadow-md ring-1 ring-gray-100">
        <h1 className="mb-4 text-2xl font-bold">{text.title}</h1>
        {/* Usable once the app owns it: typing has no safe replay, and Google's pop-up needs a real tap (decision 038). */}
        <fieldset disabled={!hydrated} role="none" className="contents">
        <form onSubmit={submit} noValidate={false}>
          <div className="mb-4">
            <label className="mb-2 block text-sm font-bold text-gray-700" htmlFor="email">Email</label>
            <input id="email" type="email" name="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="Email Address" className="w-full rounded border border-gray-300 px-3 py-2 leading-tight shadow-sm focus:outline-2 focus:outline-accent" />
          </div>
          <div className="mb-4">
            <label className="mb-2 block text-sm font-bold text-gray-700" htmlFor="password">Password</label>
            <input id="password" type="password" name="password" required autoComplete={mode === 'login' ? 'current-password' : 'new-password'} value={password} onChange={(e) => setPassword(e.target.value)} placeholder="Password" className="w-full rounded border border-gray-300 px-3 py-2 leading-tight shadow-sm focus:outline-2 focus:outline-accent" />
          </div>
          {mode === 'login' && (
            <div className="-mt-2 mb-4 text-right">
              <button type="button" onClick={forgot} className={`text-sm ${textLink}`}>
                Forgot password?
              </button>
              {reset && (
                <p role={reset.ok ? 'status' : 'alert'} className={`mt-2 text-left text-sm ${reset.ok ? 'text-secondary' : 'text-danger'}`}>
                  {reset.text}
                </p>
              )}
            </div>
          )}
          {error && !error.google && (
            <div role="alert" className="mb-3 text-sm">
              <p className="italic text-danger">Please enter valid Email and Password.</p>
              <p className="text-gray-700">{error.detail}</p>
            </div>
          )}
          <OfflineNotice className="mb-3" />
          <button disabled={busy || !online} className={buttonClass('primary', 'md', 'px-8')}>
            {busy ? 'Please wait...' : text.submit}
          </button>
        </form>
        <p className="mt-4 text-sm font-medium">
          {text.prompt}{' '}
          <Link to={text.link} className={textLink}>{text.linkText}</Link>
        </p>
        <div className="mt-4">
          <button type="button" onClick={google} disabled={!online} className={buttonClass('secondary', 'md', 'w-full')}>
            <GoogleIcon /> Sign in with Google
          </button>
          {error?.google && <p role="alert" className="mt-3 text-sm text-danger">{error.detail}</p>}
        </div>
        </fieldset>
        <p className="mt-5 text-center text-xs text-gray-600">&copy;{new Date().getFullYear()} Book Store. All rights reserved.</p>
      </div>
    </div>
  );
}
