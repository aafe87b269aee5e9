// sweetalert2 is loaded on first use, so no page waits for it. Texts and timings are the spec's.
const swal = () => import('sweetalert2').then((m) => m.default);

const DIALOG_DEFAULTS = { confirmButtonText: 'OK', denyButtonText: 'No', cancelButtonText: 'Cancel', confirmButtonColor: '#0D0842' };

export async function toast(title: string, options: { timer: number; progress?: boolean }) {
  const Swal = await swal();
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
  const Swal = await swal();
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
    confirmButtonColor: '#b91c1c',
  });
  return result.isConfirmed;
}
