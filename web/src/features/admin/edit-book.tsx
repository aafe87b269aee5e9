import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { alertBox } from '../../lib/notify';
import { bookQuery } from '../../lib/books/get-book';
import { booksQueryKey } from '../../lib/books/get-books';
import { editBook, uploadCover } from './api/admin-api';
import { BookForm, type BookFormValues } from './components/book-form';

export function Component() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const { data: book, isPending, isError, refetch } = useQuery(bookQuery(id));
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  if (isPending) return <FullScreenSpinner />;
  if (isError || !book) return <p role="alert" className="text-red-700">Error fetching book data</p>;

  const submit = async ({ payload, file }: BookFormValues) => {
    setBusy(true);
    try {
      const coverImage = file ? (await uploadCover(file, setProgress)).coverImage : payload.coverImage;
      await editBook(id, { ...payload, coverImage });
      await queryClient.invalidateQueries({ queryKey: booksQueryKey });
      await refetch();
      void alertBox('Book Updated', 'Book updated successfully!', 'success');
    } catch (error) {
      console.error('Update failed', error);
      void alertBox('Failed to update book.', undefined, 'error');
    } finally {
      setBusy(false);
      setProgress(null);
    }
    return false;
  };

  return (
    <section className="mx-auto max-w-lg rounded-lg bg-white p-6 shadow">
      <h2 className="mb-4 text-2xl font-bold text-gray-800">Update Book</h2>
      <BookForm key={book.updatedAt} initial={book} submitLabel="Update Book" busyLabel="Updating.." busy={busy} progress={progress} onSubmit={submit} />
    </section>
  );
}
