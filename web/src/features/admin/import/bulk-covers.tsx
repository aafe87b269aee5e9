import { useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useOnline } from '../../../lib/use-online';
import { uploadCoverForIsbn } from '../api/upload-cover';
import { coverOf, MAX_COVER_ZIP_BYTES, type ZipCover } from './cover-zip';

// Bulk covers (issue 26): a zip of `<isbn>.jpg|png|webp` files, read here (fflate, loaded with this
// form only), each cover sent as its own request to POST /api/books/cover?isbn=, which attaches it
// to the book with that ISBN. The report lists what matched no book and what was refused.

type Phase = 'idle' | 'reading' | 'uploading' | 'done' | 'failed';
interface Report { attached: number; unmatched: string[]; refused: { name: string; message: string }[]; skipped: string[] }
const EMPTY: Report = { attached: 0, unmatched: [], refused: [], skipped: [] };
const SHOWN = 50;

export function BulkCovers() {
  const queryClient = useQueryClient();
  const online = useOnline();
  const [phase, setPhase] = useState<Phase>('idle');
  const [total, setTotal] = useState(0);
  const [done, setDone] = useState(0);
  const [report, setReport] = useState<Report>(EMPTY);
  const [message, setMessage] = useState('');
  const busy = phase === 'reading' || phase === 'uploading';

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    setReport(EMPTY);
    setMessage('');
    setDone(0);
    setTotal(0);
    if (!file) return setPhase('idle');
    if (file.size > MAX_COVER_ZIP_BYTES) {
      setMessage('The zip is larger than 200 MB: split it into smaller zips.');
      return setPhase('failed');
    }
    setPhase('reading');
    let entries: Record<string, Uint8Array>;
    const skipped: string[] = [];
    try {
      const { unzipSync } = await import('fflate');
      entries = unzipSync(new Uint8Array(await file.arrayBuffer()), {
        filter: (entry) => {
          if (coverOf(entry.name)) return true;
          if (!entry.name.endsWith('/') && !entry.name.includes('__MACOSX')) skipped.push(entry.name);
          return false;
        },
      });
    } catch {
      setMessage('This file is not a zip that can be read.');
      return setPhase('failed');
    }
    const covers = Object.keys(entries).map((name) => coverOf(name)).filter((c): c is ZipCover => c !== null);
    let next: Report = { ...EMPTY, skipped };
    setTotal(covers.length);
    setReport(next);
    setPhase('uploading');
    for (const cover of covers) {
      const bytes = entries[cover.name]!;
      const image = new File([bytes.slice().buffer], cover.name.split('/').pop()!, { type: cover.type });
      try {
        await uploadCoverForIsbn(cover.isbn, image);
        next = { ...next, attached: next.attached + 1 };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404 && error.body?.code === 'NO_BOOK_WITH_ISBN') next = { ...next, unmatched: [...next.unmatched, cover.name] };
        else next = { ...next, refused: [...next.refused, { name: cover.name, message: error instanceof Error ? error.message : String(error) }] };
        if (error instanceof ApiError && (error.kind === 'FETCH_ERROR' || error.status === 401)) {
          setReport(next);
          setMessage(`Stopped at ${cover.name}: ${error.message}. The covers before it are attached; sending the zip again is safe.`);
          return setPhase('failed');
        }
      }
      setDone((n) => n + 1);
      setReport(next);
    }
    if (next.attached > 0) await queryClient.invalidateQueries({ queryKey: queryKeys.books });
    setPhase('done');
  };

  return (
    <section aria-labelledby="bulk-covers-heading" className="space-y-3 border-t border-gray-200 pt-6">
      <h3 id="bulk-covers-heading" className="text-xl font-bold text-gray-800">Covers From a Zip</h3>
      <p className="text-gray-700">
        A zip of cover images named after each book&rsquo;s ISBN (<code>9780306406157.jpg</code>, <code>.png</code> or <code>.webp</code>, at
        most 2 MB each, 200 MB in all). Each cover is attached to the book with that ISBN; covers of ISBNs the shop does not have are listed.
      </p>
      <div>
        <label htmlFor="cover-zip" className="mb-1 block font-semibold text-gray-700">Zip of covers</label>
        <input id="cover-zip" type="file" accept=".zip,application/zip" disabled={busy || !online} onChange={(e) => void choose(e)} className="block w-full text-sm" />
      </div>
      {total > 0 && <progress aria-label="Cover upload progress" max={total} value={done} className="h-3 w-full accent-secondary" />}
      <p aria-live="polite" className="text-sm text-gray-700">
        {phase === 'reading' && 'Reading the zip…'}
        {phase === 'uploading' && `Attaching covers: ${done} of ${total}`}
        {phase === 'done' && `Attached ${report.attached} of ${total} ${total === 1 ? 'cover' : 'covers'}: ${report.unmatched.length} matched no book, ${report.refused.length} refused, ${report.skipped.length} other ${report.skipped.length === 1 ? 'file' : 'files'} skipped.`}
      </p>
      {message && <p role="alert" className="rounded-md bg-danger-soft p-3 text-danger">{message}</p>}
      {report.unmatched.length > 0 && (
        <div>
          <h4 className="font-semibold text-gray-800">No Book Has These ISBNs</h4>
          <ul aria-label="Unmatched covers" className="list-inside list-disc text-sm text-gray-700">
            {report.unmatched.slice(0, SHOWN).map((name) => <li key={name} className="break-all">{name}</li>)}
          </ul>
          {report.unmatched.length > SHOWN && <p className="text-sm text-gray-700">…and {report.unmatched.length - SHOWN} more.</p>}
        </div>
      )}
      {report.refused.length > 0 && (
        <div>
          <h4 className="font-semibold text-gray-800">Refused</h4>
          <ul aria-label="Refused covers" className="list-inside list-disc text-sm text-gray-700">
            {report.refused.slice(0, SHOWN).map((r) => <li key={r.name} className="break-all">{r.name}: {r.message}</li>)}
          </ul>
        </div>
      )}
    </section>
  );
}
