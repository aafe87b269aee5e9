import type { Book } from '@bookstore/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { doc } from 'firebase/firestore';
import { useEffect, useMemo } from 'react';
import { useFirestore, useFirestoreDocData } from 'reactfire';
import { bookQuery } from '../../lib/books/get-book';
import { LiveErrorBoundary, LiveFirestore } from '../../lib/live-firestore';

/**
 * Follows each book's stock straight from Firestore (books/{id} is public catalogue data under
 * firestore.rules) and writes it into the book's cached API answer: the book page's badge and Add
 * to Cart button, and the cart's lines (CartStockSync flags a line at 0), move within a second of
 * another shopper's order, without polling. Loaded lazily, after the page has rendered.
 */
export default function FollowStock({ ids }: { ids: string[] }) {
  return (
    <LiveFirestore>
      {ids.map((id) => (
        // A failed listener (offline, a deleted book) leaves the page as the API drew it.
        <LiveErrorBoundary key={id} fallback={() => null}>
          <FollowOne id={id} />
        </LiveErrorBoundary>
      ))}
    </LiveFirestore>
  );
}

function FollowOne({ id }: { id: string }) {
  const firestore = useFirestore();
  const ref = useMemo(() => doc(firestore, 'books', id), [firestore, id]);
  const { data } = useFirestoreDocData(ref);
  const stock = (data as { stock?: unknown } | undefined)?.stock;
  const queryClient = useQueryClient();
  // The cached answer as it is now: a later refetch (the API is CDN-cached for up to a minute) may
  // bring an older stock back, and then the live figure is written again.
  const cached = useQuery({ ...bookQuery(id), enabled: false }).data?.stock;
  useEffect(() => {
    if (typeof stock !== 'number' || cached === stock) return;
    queryClient.setQueryData<Book>(bookQuery(id).queryKey, (book) => (book && book.stock !== stock ? { ...book, stock } : book));
  }, [queryClient, id, stock, cached]);
  return null;
}
