import { buttonClass } from '../../../components/ui/button';
import { BOOK_FIELD_SPECS, looksLikeIsbn, LOOKUP_FIELDS, toIsbn13, type IsbnLookup } from '@bookstore/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type RefObject } from 'react';
import { ApiError } from '../../../lib/api-client';
import { isbnLookupQuery } from '../api/lookup-isbn';

// The book form's ISBN lookup (issue 26): once the ISBN field holds an ISBN-10 or ISBN-13, an
// offer to fill the fields still empty from Open Library, through our function. What the admin
// typed is never overwritten. If the service cannot be reached the form says so and stays usable.

/** The form's fields a lookup may fill (the registry's `lookup` fields, then the cover), with their labels for the summary line. */
const FILLABLE: [keyof IsbnLookup, string][] = [...LOOKUP_FIELDS.map((name): [keyof IsbnLookup, string] => [name, BOOK_FIELD_SPECS[name].label.toLowerCase()]), ['coverUrl', 'cover URL']];

function problem(error: unknown): string {
  if (error instanceof ApiError && error.status === 404) return 'Open Library has no book with this ISBN: fill in the details by hand.';
  if (error instanceof ApiError && error.status === 400) return error.message;
  if (error instanceof ApiError && error.status === 429) return error.message;
  return 'Open Library cannot be reached right now: fill in the details by hand, or try again later.';
}

export function IsbnLookupOffer({ isbn, form, canFillCover }: { isbn: string; form: RefObject<HTMLFormElement | null>; canFillCover: boolean }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ for: string; text: string; ok: boolean } | null>(null);
  if (!looksLikeIsbn(isbn)) return null;
  const isbn13 = toIsbn13(isbn);
  const shown = result && result.for === isbn ? result : null;

  const lookUp = async () => {
    if (!isbn13) {
      setResult({ for: isbn, text: 'This ISBN has a wrong check digit.', ok: false });
      return;
    }
    setBusy(true);
    try {
      const found = await queryClient.fetchQuery(isbnLookupQuery(isbn13));
      const filled: string[] = [];
      for (const [name, label] of FILLABLE) {
        if (name === 'coverUrl' && !canFillCover) continue;
        const value = found[name];
        const element = form.current?.elements.namedItem(name);
        if (value === undefined || !(element instanceof HTMLInputElement) || element.value.trim() !== '') continue;
        element.value = String(value);
        filled.push(label);
      }
      setResult({
        for: isbn,
        ok: true,
        text: filled.length > 0 ? `Filled ${filled.join(', ')} from Open Library. Check them before saving.` : 'Open Library has nothing for the fields still empty.',
      });
    } catch (error) {
      setResult({ for: isbn, text: problem(error), ok: false });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-2 space-y-1">
      <button type="button" onClick={() => void lookUp()} disabled={busy} className={buttonClass('secondary', 'sm')}>
        {busy ? 'Looking up…' : 'Fill Empty Fields from Open Library'}
      </button>
      {shown && <p role="status" className={`text-sm ${shown.ok ? 'text-secondary' : 'text-secondary'}`}>{shown.text}</p>}
    </div>
  );
}
