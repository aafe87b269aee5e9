export function Spinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-16 text-secondary">
      <span className="size-6 animate-spin rounded-full border-4 border-primary border-t-transparent" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** The dashboard's full-screen centred spinner. */
export function FullScreenSpinner() {
  return (
    <div role="status" aria-label="Loading" className="fixed inset-0 z-50 flex items-center justify-center bg-white/70">
      <span className="size-12 animate-spin rounded-full border-4 border-secondary border-t-transparent" aria-hidden="true" />
    </div>
  );
}
