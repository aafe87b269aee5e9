import { buttonClass } from '../../components/ui/button';
import { EMAIL_NOT_VERIFIED_MESSAGE } from '@bookstore/contract';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { authSdk } from '../../lib/auth/auth-context';
import { onEmailNotVerified } from './email-verification';

type Gate = 'checking' | 'verified' | 'unverified';

/**
 * Shown above the checkout form while the signed-in account's email is not verified (the API
 * refuses its orders with 403 EMAIL_NOT_VERIFIED): sends the verification email, and once the link
 * was opened, reloads the account and its token so the order goes through.
 */
export function VerifyEmailGate() {
  const [gate, setGate] = useState<Gate>('checking');
  const [note, setNote] = useState('');
  // Either button's Firebase Auth call; both wait while one runs.
  const action = useMutation({
    mutationFn: (run: () => Promise<void>) => run(),
    onError: (error) => {
      console.error('Email verification failed', error);
      setNote('That did not work. Please wait a minute and try again.');
    },
  });

  useEffect(() => {
    let live = true;
    authSdk()
      .then((sdk) => sdk.needsEmailVerification())
      .then((needed) => live && setGate((was) => (was === 'unverified' ? was : needed ? 'unverified' : 'verified')))
      .catch(() => undefined); // no answer: the API still refuses, and then says so
    const off = onEmailNotVerified(() => setGate('unverified'));
    return () => {
      live = false;
      off();
    };
  }, []);

  if (gate !== 'unverified') return null;

  const send = () =>
    action.mutate(async () => {
      await (await authSdk()).sendVerificationEmail();
      setNote('Verification email sent. Open the link in it, then choose “I Have Verified, Continue”.');
    });
  const recheck = () =>
    action.mutate(async () => {
      if (await (await authSdk()).refreshEmailVerification()) {
        setNote('');
        setGate('verified');
      } else {
        setNote('Your email address is not verified yet. Open the link in the email we sent you, then try again.');
      }
    });

  return (
    <section aria-labelledby="verify-email-title" className="mb-6 rounded-md border border-primary bg-primary-soft p-4 text-gray-800">
      <h2 id="verify-email-title" className="text-lg font-semibold">{EMAIL_NOT_VERIFIED_MESSAGE}</h2>
      <p className="mt-1">Orders are paid on delivery, so we take them only from verified email addresses. We will email you a link; open it, then come back here.</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <button type="button" onClick={send} disabled={action.isPending} className={buttonClass('primary', 'md')}>
          Send Verification Email
        </button>
        <button type="button" onClick={recheck} disabled={action.isPending} className={buttonClass('secondary', 'md')}>
          I Have Verified, Continue
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm">{note}</p>
    </section>
  );
}
