import { toIsbn13 } from '@bookstore/contract';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { buttonClass } from '../../../components/ui/button';
import type { Ean13Detector } from './ean13-detector';

// 'Scan with camera' (issue 57): a phone or tablet without a USB scanner reads a book's EAN-13 with
// its camera. The dialog shows the camera, and each ISBN read goes to `onIsbn` exactly as a typed or
// scanned ISBN (the page adds the book; a second read of the same book is one more copy once the
// barcode has left the view and come back). The detector, and with it the WebAssembly reader where
// the browser has none, loads only when the camera opens (ean13-detector.ts).

/** Frames looked at per second: plenty for a barcode held still, light on a phone's battery. */
const SCAN_INTERVAL_MS = 150;
/** A barcode not seen this long has left the view: read again, it is another copy. */
const GONE_AFTER_MS = 1500;

const noSubscription = () => () => {};
const cameraAvailable = () => !!navigator.mediaDevices?.getUserMedia;

type Status =
  | { kind: 'starting' }
  | { kind: 'scanning'; last?: string }
  | { kind: 'refused' }
  | { kind: 'failed'; message: string };

export function CameraScanButton({ onIsbn, className }: { onIsbn: (isbn: string) => void; className?: string }) {
  const [open, setOpen] = useState(false);
  // Only where a camera can be asked for (a secure context with mediaDevices); never on the server.
  const available = useSyncExternalStore(noSubscription, cameraAvailable, () => false);
  if (!available) return null;
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className={className ?? buttonClass('secondary', 'md', 'h-11')}>Scan with camera</button>
      {open && <CameraDialog onIsbn={onIsbn} onClose={() => setOpen(false)} />}
    </>
  );
}

function CameraDialog({ onIsbn, onClose }: { onIsbn: (isbn: string) => void; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<Status>({ kind: 'starting' });
  // The latest callback, without restarting the camera when the page re-renders.
  const deliver = useRef(onIsbn);
  useEffect(() => {
    deliver.current = onIsbn;
  }, [onIsbn]);

  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
  }, []);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = new Map<string, number>();

    const start = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false });
      } catch (error) {
        if (stopped) return;
        const name = (error as { name?: string }).name;
        if (name === 'NotAllowedError' || name === 'SecurityError') setStatus({ kind: 'refused' });
        else setStatus({ kind: 'failed', message: name === 'NotFoundError' ? 'No camera was found on this device.' : 'The camera could not be started.' });
        return;
      }
      if (stopped) return stream.getTracks().forEach((t) => t.stop());
      const el = video.current!;
      el.srcObject = stream;
      await el.play().catch(() => undefined);
      let detector: Ean13Detector;
      try {
        detector = await (await import('./ean13-detector')).ean13Detector();
      } catch {
        if (!stopped) setStatus({ kind: 'failed', message: 'The barcode reader could not be loaded. Check the connection and try again.' });
        return;
      }
      if (stopped) return;
      setStatus({ kind: 'scanning' });
      const tick = async () => {
        if (stopped) return;
        if (el.readyState >= el.HAVE_CURRENT_DATA) {
          try {
            const now = Date.now();
            for (const code of await detector.detect(el)) {
              const isbn = toIsbn13(code.rawValue);
              if (!isbn) continue;
              const last = seen.get(isbn);
              seen.set(isbn, now);
              if (last === undefined || now - last > GONE_AFTER_MS) {
                deliver.current(isbn);
                setStatus({ kind: 'scanning', last: isbn });
              }
            }
          } catch {
            // A frame the reader could not take (the video resizing): the next one.
          }
        }
        if (!stopped) timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS);
      };
      void tick();
    };
    void start();
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby="camera-scan-heading"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] overflow-auto rounded-lg bg-white p-0 shadow-xl backdrop:bg-black/40"
    >
      <div className="space-y-4 p-4 sm:p-6">
        <h2 id="camera-scan-heading" className="text-xl font-semibold">Scan with camera</h2>
        {status.kind === 'refused' ? (
          <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
            Camera permission was refused. Allow the camera for this site in the browser&apos;s settings, or type the ISBN.
          </p>
        ) : status.kind === 'failed' ? (
          <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">{status.message}</p>
        ) : (
          <>
            {/* Muted and inline: iPhones play a camera stream only so. */}
            <video ref={video} muted playsInline aria-label="Camera view" className="aspect-video w-full rounded-md bg-black object-cover" />
            <p role="status" className="min-h-5 text-sm text-gray-700">
              {status.kind === 'starting' ? 'Starting the camera…' : status.last ? `Added ISBN ${status.last}. Scan the next book.` : 'Hold the barcode inside the frame.'}
            </p>
          </>
        )}
        <div className="flex justify-end">
          <button type="button" onClick={onClose} autoFocus className={buttonClass('secondary', 'md')}>Close</button>
        </div>
      </div>
    </dialog>
  );
}
