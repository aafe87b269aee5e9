import { buttonClass } from '../components/ui/button';
// sweetalert2 is loaded on first use, so no page waits for it. Texts and timings are the spec's.
const swal = () => import('sweetalert2').then((m) => m.default);

/** sweetalert2, or null when its code cannot be fetched (offline, never used on this device). */
const swalOrNull = () => swal().catch(() => null);
/** The plain notice shown then; its own small chunk, precached (the entry stays within its budget). */
const plainNotice = (title: string, text: string | undefined, timer: number) => import('./plain-notice').then((m) => m.plainNotice(title, text, timer));

// The dialogs' buttons are the shop's (components/ui/button.ts): primary to go on, secondary to back
// out, danger only to confirm a destructive action (issue 29). sweetalert2's own styling is off.
const dialogButtons = (confirm: 'primary' | 'danger') => ({
  buttonsStyling: false,
  customClass: {
    actions: 'gap-3',
    confirmButton: buttonClass(confirm, 'md'),
    denyButton: buttonClass('secondary', 'md'),
    cancelButton: buttonClass('secondary', 'md'),
  },
});

// A dialog goes at once, with no fade: while sweetalert2's popup fades out it keeps the rest of the
// page aria-hidden, and it ends that only when the fade's animationend arrives. What follows a
// confirm (the dashboard's password prompt, a toast, the focus) then opened inside a page that
// assistive technology, and Playwright's getByRole, could not see for the fade's 150 ms, or for as
// long as a busy machine delayed the event (web/e2e/reauth.spec.ts checks the page right after a
// refund's confirm).
const DIALOG_DEFAULTS = { confirmButtonText: 'OK', denyButtonText: 'No', cancelButtonText: 'Cancel', hideClass: { popup: '' }, ...dialogButtons('primary') };

export async function toast(title: string, options: { timer: number; progress?: boolean }) {
  const Swal = await swalOrNull();
  if (!Swal) return plainNotice(title, undefined, options.timer);
  await Swal.fire({
    toast: true,
    position: 'top-end',
    icon: 'success',
    title,
    showConfirmButton: false,
    timer: options.timer,
    timerProgressBar: options.progress ?? false,
    didOpen: (el) => {
      if (!options.progress) return;
      el.addEventListener('mouseenter', Swal.stopTimer);
      el.addEventListener('mouseleave', Swal.resumeTimer);
    },
  });
}

export async function alertBox(title: string, text?: string, icon: 'success' | 'error' | 'warning' | 'info' = 'info', confirmButtonText = 'OK') {
  const Swal = await swalOrNull();
  if (!Swal) return plainNotice(title, text, 5000);
  await Swal.fire({ ...DIALOG_DEFAULTS, title, text, icon, confirmButtonText });
}

export async function confirmBox(title: string, text: string, confirmButtonText: string): Promise<boolean> {
  const Swal = await swal();
  const result = await Swal.fire({
    ...DIALOG_DEFAULTS,
    title,
    text,
    icon: 'warning',
    showCancelButton: true,
    confirmButtonText,
    ...dialogButtons('danger'),
  });
  return result.isConfirmed;
}

/**
 * A confirmation for an order action. With `askNote`, an optional note (why it was cancelled or
 * refused) is asked for in the same dialog. Resolves null when the admin or shopper backs out.
 */
export async function confirmAction(options: {
  title: string;
  text: string;
  confirmButtonText: string;
  cancelButtonText?: string;
  danger?: boolean;
  askNote?: boolean;
}): Promise<{ note?: string } | null> {
  const Swal = await swal();
  const result = await Swal.fire({
    ...DIALOG_DEFAULTS,
    title: options.title,
    text: options.text,
    icon: options.danger ? 'warning' : 'question',
    showCancelButton: true,
    confirmButtonText: options.confirmButtonText,
    cancelButtonText: options.cancelButtonText ?? 'Cancel',
    ...dialogButtons(options.danger ? 'danger' : 'primary'),
    reverseButtons: true,
    focusCancel: options.danger ?? false,
    ...(options.askNote
      ? {
          input: 'textarea' as const,
          inputLabel: 'Note (optional)',
          inputPlaceholder: 'Why? Kept with the order.',
          inputAttributes: { maxlength: '500' },
        }
      : {}),
  });
  if (!result.isConfirmed) return null;
  const note = typeof result.value === 'string' ? result.value.trim() : '';
  return note ? { note } : {};
}
