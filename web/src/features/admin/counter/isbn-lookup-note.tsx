import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { buttonClass, textLink } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import { isbnLookupQuery } from '../api/lookup-isbn';

// An ISBN the catalogue does not have, at the counter: the ISBN lookup (issue 26) says what book it
// is, and Add Book starts the book with that ISBN (the form offers the same lookup to fill it in).
// Both need a role that may add or edit books; a bookseller is told whom to ask.

export function IsbnLookupNote({ isbn, canLookUp, canAdd }: { isbn: string; canLookUp: boolean; canAdd: boolean }) {
  const [asked, setAsked] = useState(false);
  const lookup = useQuery({ ...isbnLookupQuery(isbn), enabled: asked && canLookUp });
  if (!canLookUp && !canAdd) return <p className="mt-1">Ask a manager to add it to the catalogue, then scan it again.</p>;
  return (
    <div className="mt-2 space-y-2 text-secondary">
      <div className="flex flex-wrap items-center gap-3">
        {canLookUp && !asked && <button type="button" onClick={() => setAsked(true)} className={buttonClass('secondary', 'sm')}>Look Up ISBN</button>}
        {canAdd && <Link to={`/dashboard/add-new-book?isbn=${isbn}`} className={`${textLink} text-sm`}>Add this book to the catalogue</Link>}
      </div>
      {asked && lookup.isPending && <p role="status">Looking up {isbn}…</p>}
      {lookup.data && (
        <p role="status">Open Library: <strong>{lookup.data.title ?? 'no title'}</strong>{lookup.data.author ? ` by ${lookup.data.author}` : ''}{lookup.data.publisher ? ` (${lookup.data.publisher})` : ''}.</p>
      )}
      {lookup.error && (
        <p role="status">{lookup.error instanceof ApiError && lookup.error.status === 404 ? 'Open Library has no book with this ISBN either.' : 'Open Library cannot be reached right now.'}</p>
      )}
    </div>
  );
}
