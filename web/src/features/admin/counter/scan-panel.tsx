import { useState, type FormEvent, type RefObject } from 'react';
import { buttonClass, fieldClass } from '../../../components/ui/button';
import { CameraScanButton } from '../camera-scan/camera-scan';
import type { Notice } from './counter-lines';
import { IsbnLookupNote } from './isbn-lookup-note';

/** Scan or type an ISBN (a scanner types the digits and Enter), or read it with the camera; what the till says about it. */
export function ScanPanel({ scanner, notice, onCode, canLookUp, canAdd }: {
  scanner: RefObject<HTMLInputElement | null>; notice: Notice; onCode: (typed: string) => Promise<void>; canLookUp: boolean; canAdd: boolean;
}) {
  const [code, setCode] = useState('');
  const scan = async (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    setCode(''); // ready for the next scan at once
    await onCode(typed);
  };
  return (
    <>
      {/* On a phone the field takes the row and its buttons go below it: three across crushed the label to a word a line. */}
      <form onSubmit={(e) => void scan(e)} className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 basis-full sm:basis-0 sm:flex-1">
          <label htmlFor="scan" className="mb-1 block text-sm font-semibold text-gray-700">Scan or type an ISBN</label>
          <input
            id="scan" ref={scanner} value={code} onChange={(e) => setCode(e.target.value)} autoFocus autoComplete="off" inputMode="numeric" enterKeyHint="enter"
            maxLength={20} className={`${fieldClass} text-lg tracking-wide`} aria-describedby={notice ? 'scan-notice' : undefined}
          />
        </div>
        <button type="submit" className={buttonClass('secondary', 'md', 'h-11')}>Add</button>
        <CameraScanButton onIsbn={(isbn) => void onCode(isbn)} />
      </form>
      {notice && (
        <div id="scan-notice" role="alert" className={`rounded-md px-3 py-2 text-sm ${notice.tone === 'error' ? 'bg-danger-soft text-danger' : 'bg-accent-soft text-secondary'}`}>
          <p>{notice.text}</p>
          {notice.unknownIsbn && <IsbnLookupNote isbn={notice.unknownIsbn} canLookUp={canLookUp} canAdd={canAdd} />}
        </div>
      )}
    </>
  );
}
