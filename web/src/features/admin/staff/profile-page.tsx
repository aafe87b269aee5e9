import { buttonClass } from '../../../components/ui/button';
import { ROLE_LABELS } from '@bookstore/contract';
import qrcode from 'qrcode-generator';
import { useMemo, useState, type FormEvent } from 'react';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { usePageTitle } from '../../../lib/use-page-title';
import { useQuery } from '@tanstack/react-query';
import { settingsQuery, useConfirmTotp, useDisableTotp, useMe, useSaveSettings, useStartTotp } from '../api/staff-api';

/** The otpauth URL as an SVG QR code (qrcode-generator: pure JS, error correction M). */
function QrCode({ text }: { text: string }) {
  const svg = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(text);
    qr.make();
    return qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true });
  }, [text]);
  // The SVG is made here from our own URL, not from user input.
  return <div role="img" aria-label="QR code for your authenticator app" className="size-56 max-w-full" dangerouslySetInnerHTML={{ __html: svg }} />;
}

/** The owner's shop setting: owners and managers must turn two-factor sign-in on before acting. */
function RequireTotpSetting() {
  const settings = useQuery(settingsQuery());
  const save = useSaveSettings();
  if (!settings.data) return null;
  return (
    <div className="space-y-1 border-t border-gray-100 pt-4">
      <h3 className="text-lg font-semibold">Shop Setting</h3>
      <label className="flex items-start gap-2">
        <input
          type="checkbox"
          className="mt-1 size-4"
          checked={save.isPending ? Boolean(save.variables?.requireTotp) : settings.data.requireTotp}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ requireTotp: e.target.checked }, { onSuccess: () => void settings.refetch() })}
        />
        <span>Owners and managers must use two-factor sign-in</span>
      </label>
      {save.isError && <p role="alert" className="text-sm text-danger">{save.error.message}</p>}
    </div>
  );
}

const codeField = 'w-36 rounded border border-gray-300 px-3 py-2 tracking-widest focus:outline-2 focus:outline-accent';

/** The signed-in person's profile: turn two-factor sign-in on (scan, confirm a code) or off. */
export function Component() {
  usePageTitle('Two-factor sign-in');
  const me = useMe();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const disable = useDisableTotp();
  const [done, setDone] = useState('');
  if (!me.data) return <FullScreenSpinner />;
  const { displayName, username, role, totpEnabled, totpSetupRequired } = me.data;
  const otpOf = (e: FormEvent<HTMLFormElement>) => String(new FormData(e.currentTarget).get('otp') ?? '').replace(/\s/g, '');

  return (
    <section aria-labelledby="profile-heading" className="max-w-2xl space-y-4 rounded-lg bg-white p-4 shadow sm:p-6">
      <h2 id="profile-heading" className="text-xl font-semibold">{displayName}</h2>
      <p className="text-gray-700">{username} · {ROLE_LABELS[role]}</p>
      {totpSetupRequired && (
        <p role="alert" className="rounded bg-primary-soft p-3 text-secondary">The shop requires two-factor sign-in for your role: turn it on to continue.</p>
      )}
      <h3 className="text-lg font-semibold">Two-Factor Sign-In</h3>
      {done && <p role="status" className="text-secondary">{done}</p>}
      {totpEnabled ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            disable.mutate(otpOf(e), { onSuccess: () => setDone('Two-factor sign-in is off.') });
          }}
          className="space-y-3"
        >
          <p>Two-factor sign-in is on: signing in asks for a code from your authenticator app.</p>
          <label htmlFor="otp-off" className="block text-sm font-bold text-gray-700">Current code, to turn it off</label>
          <div className="flex flex-wrap gap-3">
            <input id="otp-off" name="otp" required inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" maxLength={7} className={codeField} />
            <button disabled={disable.isPending} className={buttonClass('secondary', 'md')}>Turn Off</button>
          </div>
          {disable.isError && <p role="alert" className="text-sm text-danger">{disable.error.message}</p>}
        </form>
      ) : !start.data ? (
        <div className="space-y-3">
          <p>Protect your account with a code from an authenticator app (Google Authenticator, 1Password, Aegis...) at every sign-in.</p>
          <button type="button" disabled={start.isPending} onClick={() => { setDone(''); start.mutate(); }} className={buttonClass('primary', 'lg')}>
            Set Up Two-Factor Sign-In
          </button>
          {start.isError && <p role="alert" className="text-sm text-danger">{start.error.message}</p>}
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            confirm.mutate(otpOf(e), { onSuccess: () => { start.reset(); setDone('Two-factor sign-in is on.'); } });
          }}
          className="space-y-3"
        >
          <p>Scan this code with your authenticator app, or type the key by hand, then enter the 6-digit code it shows.</p>
          <QrCode text={start.data.otpauthUrl} />
          <p className="text-sm">Key: <code data-testid="totp-secret" className="break-all rounded bg-gray-100 px-1">{start.data.secret}</code></p>
          <label htmlFor="otp-on" className="block text-sm font-bold text-gray-700">Code from the app</label>
          <div className="flex flex-wrap gap-3">
            <input id="otp-on" name="otp" required inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]{6,7}" maxLength={7} className={codeField} />
            <button disabled={confirm.isPending} className={buttonClass('primary', 'md')}>Turn On</button>
          </div>
          {confirm.isError && <p role="alert" className="text-sm text-danger">{confirm.error.message}</p>}
        </form>
      )}
      {me.can('settings.manage') && <RequireTotpSetting />}
    </section>
  );
}
