import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { alertBox } from '../../lib/notify';
import { serverReason } from './api/server-reason';
import { bookQuery } from '../../lib/books/get-book';
import { useUpdateBook } from './api/update-book';
import { useMe } from './api/staff-api';
import { BookForm, type BookFormValues } from './components/book-form';
import { StockAlertsWaiting } from './components/stock-alerts-waiting';

export function Component() {
  const { id = '' } = useParams();
  const { data: book, isPending, isError } = useQuery(bookQuery(id));
  const [progress, setProgress] = useState<number | null>(null);
  const update = useUpdateBook(id, setProgress);
  // A bookseller counts stock: the form sends every field its role may not change as it was (the server checks the same).
  const me = useMe();

  if (isPending) return <FullScreenSpinner />;
  if (isError || !book) return <p role="alert" className="text-danger">Error fetching book data</p>;

  const submit = async ({ payload, file }: BookFormValues) => {
    try {
      await update.mutateAsync({ book: payload, cover: file });
      void alertBox('Book Updated', 'Book updated successfully!', 'success');
    } catch (error) {
      console.error('Update failed', error);
      void alertBox('Failed to update book.', serverReason(error), 'error');
    } finally {
      setProgress(null);
    }
    return false;
  };

  return (
    <section className="max-w-lg rounded-lg bg-white p-6 shadow">
      <h2 className="mb-4 text-2xl font-bold text-gray-800">Update Book</h2>
      <StockAlertsWaiting bookId={book._id} />
      <BookForm key={book.updatedAt} initial={book} submitLabel="Update Book" busyLabel="Updating.." busy={update.isPending} progress={progress} onSubmit={submit} canWrite={me.data ? me.can : undefined} />
    </section>
  );
}
