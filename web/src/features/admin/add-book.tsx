import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { alertBox } from '../../lib/notify';
import { booksQueryKey } from '../../lib/books/get-books';
import { createBook, uploadCover } from './api/admin-api';
import { BookForm, type BookFormValues } from './components/book-form';

export function Component() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);

  const submit = async ({ payload, file }: BookFormValues) => {
    setBusy(true);
    try {
      const { coverImage } = await uploadCover(file!, setProgress);
      await createBook({ ...payload, coverImage });
      await queryClient.invalidateQueries({ queryKey: booksQueryKey });
      await queryClient.invalidateQueries({ queryKey: ['admin-stats'] });
      void alertBox('Book added', 'Book uploaded successfully!', 'success', 'Okay');
      return true;
    } catch (error) {
      console.error('Add book failed', error);
      void alertBox('Failed to add book. Please try again.', undefined, 'error');
      return false;
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return (
    <section className="mx-auto max-w-lg rounded-lg bg-white p-6 shadow">
      <h2 className="mb-4 text-2xl font-bold text-gray-800">Add New Book</h2>
      <BookForm submitLabel="Add Book" busyLabel="Adding.." busy={busy} progress={progress} onSubmit={submit} />
    </section>
  );
}
