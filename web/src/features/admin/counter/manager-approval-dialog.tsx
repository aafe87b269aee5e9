import type { Approval } from '@bookstore/contract';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { buttonClass, fieldClass } from '../../../components/ui/button';

// A manager's approval on the till (issue 55): when the shop answers MANAGER_APPROVAL_REQUIRED (a
// bookseller past their allowance, a return of another day's or till's sale), an owner or manager
// types their username, password and, when their two-factor sign-in is on, the current code; the
// till sends the sale or return again with it. Nothing typed here is kept: it goes with that one request.

export interface ApprovalRequest {
  /** Why the shop asks (its message). */
  reason: string;
  /** The last attempt's refusal (wrong password...), shown above the fields. */
  problem?: string;
}

export function ManagerApprovalDialog({ request, busy, onApprove, onCancel }: {
  request: ApprovalRequest | null;
  busy: boolean;
  onApprove: (approval: Approval) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [code, setCode] = useState('');
  useEffect(() => {
    const el = dialog.current;
    if (request && el && !el.open) el.showModal();
    if (!request && el?.open) el.close();
  }, [request]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typedCode = code.replace(/\s/g, '');
    onApprove({ username: String(form.get('username') ?? '').trim(), password: String(form.get('password') ?? ''), ...(typedCode ? { code: typedCode } : {}) });
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-heading`}
      aria-describedby={`${id}-reason`}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(28rem,calc(100vw-2rem))] overflow-auto rounded-lg bg-white p-0 shadow-xl backdrop:bg-black/40"
    >
      {request && (
        <form onSubmit={submit} className="space-y-4 p-5 sm:p-6">
          <h2 id={`${id}-heading`} className="text-xl font-semibold">Manager approval</h2>
          <p id={`${id}-reason`} className="text-gray-700">{request.reason}</p>
          <div className="space-y-1">
            <label htmlFor={`${id}-username`} className="block text-sm font-bold text-gray-700">Manager&apos;s username</label>
            <input id={`${id}-username`} name="username" required autoComplete="off" autoCapitalize="none" autoFocus className={fieldClass} />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-password`} className="block text-sm font-bold text-gray-700">Manager&apos;s password</label>
            <input id={`${id}-password`} name="password" type="password" required autoComplete="off" className={fieldClass} />
          </div>
          <div className="space-y-1">
            <label htmlFor={`${id}-code`} className="block text-sm font-bold text-gray-700">Code from their app <span className="font-normal text-gray-600">(if two-factor sign-in is on)</span></label>
            <input id={`${id}-code`} name="code" value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="off" pattern="[0-9 ]{6,7}" maxLength={7} className={`${fieldClass} tracking-widest`} />
          </div>
          {request.problem && <p role="alert" className="text-sm text-danger">{request.problem}</p>}
          <div className="flex flex-wrap justify-end gap-3">
            <button type="button" onClick={onCancel} className={buttonClass('secondary', 'md')}>Cancel</button>
            <button type="submit" disabled={busy} className={buttonClass('primary', 'md')}>{busy ? 'Approving...' : 'Approve'}</button>
          </div>
        </form>
      )}
    </dialog>
  );
}
