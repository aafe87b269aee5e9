import { buttonClass } from '../../../components/ui/button';
import { IMPORT_COLUMNS, IMPORT_DETAIL_COLUMNS, type ImportReport, type ImportRowError } from '@bookstore/contract';
import { useState, type ChangeEvent } from 'react';
import { OfflineNotice } from '../../../components/ui/offline-notice';
import { useOnline } from '../../../lib/use-online';
import { usePageTitle } from '../../../lib/use-page-title';
import { BulkCovers } from './bulk-covers';
import { useImportChunk } from './import-books';
import { splitImportFile, type ImportChunk } from './split-file';

// /dashboard/import: choose a CSV or JSON-lines file; it is checked first (a dry run that writes
// nothing and lists every bad row), then imported chunk by chunk with a progress bar. Rows are
// matched by ISBN (or id), so importing a file again, or again after a failure part-way, is safe.

type Phase = 'idle' | 'checking' | 'checked' | 'importing' | 'done' | 'failed';
interface Totals { created: number; updated: number; unchanged: number; errors: ImportRowError[] }
const EMPTY: Totals = { created: 0, updated: 0, unchanged: 0, errors: [] };
const SHOWN_ERRORS = 100;

function add(a: Totals, b: ImportReport): Totals {
  return { created: a.created + b.created, updated: a.updated + b.updated, unchanged: a.unchanged + b.unchanged, errors: [...a.errors, ...b.errors] };
}

const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;

export function Component() {
  usePageTitle('Import books');
  const importChunk = useImportChunk();
  const [fileName, setFileName] = useState('');
  const [chunks, setChunks] = useState<ImportChunk[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  const [done, setDone] = useState(0);
  const [totals, setTotals] = useState<Totals>(EMPTY);
  const [message, setMessage] = useState('');
  const rows = chunks.reduce((n, c) => n + c.rows, 0);
  const busy = phase === 'checking' || phase === 'importing';
  const online = useOnline();

  const run = async (parts: ImportChunk[], dryRun: boolean) => {
    setPhase(dryRun ? 'checking' : 'importing');
    setDone(0);
    setTotals(EMPTY);
    setMessage('');
    let sum = EMPTY;
    for (const chunk of parts) {
      try {
        sum = add(sum, await importChunk.mutateAsync({ chunk, dryRun }));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        setTotals(sum);
        setMessage(`Stopped at row ${chunk.firstRow.toLocaleString()}: ${reason}. ${dryRun ? '' : 'The rows before it are imported; importing the file again is safe (nothing is added twice).'}`);
        setPhase('failed');
        return;
      }
      setDone((n) => n + chunk.rows);
      setTotals(sum);
    }
    setPhase(dryRun ? 'checked' : 'done');
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setChunks([]);
    setTotals(EMPTY);
    setPhase('idle');
    setMessage('');
    if (!file) return;
    setFileName(file.name);
    try {
      const parts = splitImportFile(file.name, await file.text());
      if (parts.length === 0) {
        setMessage('The file has no rows to import.');
        setPhase('failed');
        return;
      }
      setChunks(parts);
      await run(parts, true);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
      setPhase('failed');
    }
  };

  const toWrite = totals.created + totals.updated;
  return (
    <section className="max-w-3xl space-y-6 rounded-lg bg-white p-6 shadow">
      <div>
        <h2 className="mb-2 text-2xl font-bold text-gray-800">Import Books</h2>
        <p className="text-gray-700">
          A CSV file with the header row <code className="break-all rounded bg-gray-100 px-1">{IMPORT_COLUMNS.join(',')}</code> (and, if you
          have them, <code className="break-all rounded bg-gray-100 px-1">{IMPORT_DETAIL_COLUMNS.join(',')}</code>: a cover URL is fetched once by
          the shop and kept as its own), or JSON lines
          (<code>.ndjson</code>) with the same fields. Books are matched by ISBN (or an <code>id</code> column): importing a file again
          updates them and adds nothing twice. An optional <code>weightGrams</code> column gives weights for postage. Empty stock, cover or
          weight cells keep what a book already has. The file is checked first; nothing
          is written until you press Import.
        </p>
      </div>
      <div>
        <label htmlFor="import-file" className="mb-1 block font-semibold text-gray-700">Catalogue file</label>
        <input id="import-file" type="file" accept=".csv,text/csv,.ndjson,.jsonl" disabled={busy || !online} onChange={(e) => void choose(e)} className="block w-full text-sm" />
      </div>
      {rows > 0 && (
        <div className="space-y-1">
          <progress aria-label={phase === 'importing' || phase === 'done' ? 'Import progress' : 'Check progress'} max={rows} value={done} className="h-3 w-full accent-secondary" />
          <p className="text-sm text-gray-700" aria-live="polite">
            {phase === 'checking' && `Checking ${fileName}: ${done.toLocaleString()} of ${plural(rows, 'row')}`}
            {phase === 'importing' && `Importing ${fileName}: ${done.toLocaleString()} of ${plural(rows, 'row')}`}
            {phase === 'checked' && `Checked ${plural(rows, 'row')}: ${totals.created.toLocaleString()} new, ${totals.updated.toLocaleString()} updated, ${totals.unchanged.toLocaleString()} unchanged, ${plural(totals.errors.length, 'error')}.`}
            {phase === 'done' && `Imported: ${totals.created.toLocaleString()} new, ${totals.updated.toLocaleString()} updated, ${totals.unchanged.toLocaleString()} unchanged, ${plural(totals.errors.length, 'row')} skipped.`}
          </p>
        </div>
      )}
      <OfflineNotice />
      {message && <p role="alert" className="rounded-md bg-danger-soft p-3 text-danger">{message}</p>}
      {phase === 'checked' && (
        <button
          type="button"
          disabled={toWrite === 0 || !online}
          onClick={() => void run(chunks, false)}
          className={buttonClass('primary', 'lg')}
        >
          {toWrite === 0 ? 'Nothing to Import' : `Import ${plural(toWrite, 'book')}${totals.errors.length > 0 ? ` (skip ${plural(totals.errors.length, 'error')})` : ''}`}
        </button>
      )}
      {totals.errors.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="mb-2 text-left font-semibold text-gray-800">Rows with errors (row 1 is the first book after the header)</caption>
            <thead>
              <tr className="border-b"><th scope="col" className="py-1 pr-4">Row</th><th scope="col" className="py-1 pr-4">Field</th><th scope="col" className="py-1">Problem</th></tr>
            </thead>
            <tbody>
              {totals.errors.slice(0, SHOWN_ERRORS).map((e) => (
                <tr key={`${e.row}-${e.field}`} className="border-b border-gray-100">
                  <td className="py-1 pr-4">{e.row}</td><td className="py-1 pr-4">{e.field}</td><td className="py-1">{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {totals.errors.length > SHOWN_ERRORS && <p className="mt-2 text-sm text-gray-700">…and {(totals.errors.length - SHOWN_ERRORS).toLocaleString()} more.</p>}
        </div>
      )}
      <BulkCovers />
    </section>
  );
}
