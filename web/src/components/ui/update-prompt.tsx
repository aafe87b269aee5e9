import { useState } from 'react';
import { useWaitingUpdate } from '../../lib/pwa/update-state';

/**
 * A small fixed banner when a new deploy is installed and waiting: 'Reload' switches to it, 'Later'
 * hides the banner (the new version then starts when every tab of the shop has been closed).
 */
export function UpdatePrompt() {
  const update = useWaitingUpdate();
  const [reloading, setReloading] = useState(false);
  const [later, setLater] = useState<typeof update>(null);
  if (!update || later === update) return null;
  return (
    <div role="status" className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-md items-center justify-between gap-4 rounded-lg bg-secondary px-4 py-3 text-sm text-white shadow-lg">
      <span>A new version is available</span>
      <span className="flex shrink-0 gap-2">
        <button type="button" onClick={() => setLater(update)} className="rounded-md px-3 py-1.5 font-semibold text-white underline-offset-2 hover:underline">
          Later
        </button>
        <button
          type="button"
          disabled={reloading}
          onClick={() => {
            setReloading(true);
            void update();
          }}
          className="rounded-md bg-primary px-4 py-1.5 font-semibold text-secondary hover:brightness-95 disabled:opacity-60"
        >
          Reload
        </button>
      </span>
    </div>
  );
}
