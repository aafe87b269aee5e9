import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { alertBox } from '../../lib/notify';
import { serverReason } from './api/server-reason';
import { useCreateBook } from './api/create-book';
import { BookForm, type BookFormValues } from './components/book-form';

export function Component() {
  const [progress, setProgress] = useState<number | null>(null);
  const create = useCreateBook(setProgress);
  // The counter sends an ISBN it does not know here (issue 39): the form starts with it and offers the lookup.
  const [params] = useSearchParams();

  const submit = async ({ payload, file }: BookFormValues) => {
    try {
      await create.mutateAsync({ book: payload, cover: file });
      void alertBox('Book added', 'Book uploaded successfully!', 'success', 'Okay');
      return true;
    } catch (error) {
      console.error('Add book failed', error);
      void alertBox('Failed to add book. Please try again.', serverReason(error), 'error');
      return false;
    } finally {
      setProgress(null);
    }
  };

  return (
    <section className="max-w-lg rounded-lg bg-white p-6 shadow">
      <h2 className="mb-4 text-2xl font-bold text-gray-800">Add New Book</h2>
      <BookForm startIsbn={params.get('isbn') ?? undefined} submitLabel="Add Book" busyLabel="Adding.." busy={create.isPending} progress={progress} onSubmit={submit} />
    </section>
  );
}
