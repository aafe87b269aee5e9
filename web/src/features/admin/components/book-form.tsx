import { BookInputSchema, CATEGORIES, MAX_STOCK, type Book } from '@bookstore/contract';
import { useRef, useState, type FormEvent } from 'react';
import { OfflineNotice } from '../../../components/ui/offline-notice';
import { useOnline } from '../../../lib/use-online';
import type { BookPayload } from '../api/admin-api';

export interface BookFormValues {
  payload: BookPayload;
  file: File | null;
}

interface BookFormProps {
  initial?: Book;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  progress: number | null;
  /** Resolves true when the form should reset (a successful add). */
  onSubmit: (values: BookFormValues) => Promise<boolean>;
}

const input = 'w-full rounded-md border border-gray-300 p-2 focus:outline-2 focus:outline-blue-600';

/** The add and edit form; it validates with the same schema the API uses. */
export function BookForm({ initial, submitLabel, busyLabel, busy, progress, onSubmit }: BookFormProps) {
  const form = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const editing = Boolean(initial);
  const online = useOnline();

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const raw = {
      title: data.get('title'),
      author: data.get('author') ?? '',
      description: data.get('description'),
      category: data.get('category'),
      trending: data.get('trending') === 'on',
      oldPrice: data.get('oldPrice'),
      newPrice: data.get('newPrice'),
      // On add, a placeholder until the file is uploaded; on edit, the URL field (empty keeps the old cover).
      coverImage: editing ? data.get('coverImage') ?? '' : file ? 'book-1' : '',
      isbn: data.get('isbn') ?? '',
      stock: data.get('stock'),
    };
    const parsed = BookInputSchema.safeParse(raw);
    const next: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
    // The wire allows leaving stock out (a new book starts at 0); the form asks for it explicitly.
    if (String(raw.stock ?? '').trim() === '') next.stock = 'Stock is required';
    if (!editing && !file) next.coverImage = 'Choose a cover image';
    setErrors(next);
    if (!parsed.success || Object.keys(next).length) return;
    const reset = await onSubmit({ payload: parsed.data, file });
    if (reset) {
      form.current?.reset();
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const err = (name: string) => errors[name] && <p id={`${name}-error`} className="mt-1 text-sm text-red-700">{errors[name]}</p>;
  const described = (name: string) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {});

  return (
    <form ref={form} onSubmit={submit} noValidate className="space-y-4">
      <div>
        <label htmlFor="title" className="mb-1 block text-sm font-semibold text-gray-700">Title</label>
        <input id="title" name="title" required defaultValue={initial?.title} placeholder="Enter book title" className={input} {...described('title')} />
        {err('title')}
      </div>
      <div>
        <label htmlFor="author" className="mb-1 block text-sm font-semibold text-gray-700">Author</label>
        <input id="author" name="author" defaultValue={initial?.author} placeholder="Enter author name" autoComplete="off" className={input} {...described('author')} />
        {err('author')}
      </div>
      <div>
        <label htmlFor="description" className="mb-1 block text-sm font-semibold text-gray-700">Description</label>
        <input id="description" name="description" required defaultValue={initial?.description} placeholder="Enter book description" className={input} {...described('description')} />
        {err('description')}
      </div>
      <div>
        <label htmlFor="category" className="mb-1 block text-sm font-semibold text-gray-700">Category</label>
        <select id="category" name="category" required defaultValue={initial?.category ?? ''} className={input} {...described('category')}>
          <option value="">Choose A Category</option>
          {CATEGORIES.map((c) => <option key={c} value={c}>{c[0]!.toUpperCase() + c.slice(1)}</option>)}
        </select>
        {err('category')}
      </div>
      <div className="flex items-center gap-2">
        <input id="trending" name="trending" type="checkbox" defaultChecked={initial?.trending} className="size-4 rounded" />
        <label htmlFor="trending" className="text-sm font-semibold text-gray-700">Trending</label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="oldPrice" className="mb-1 block text-sm font-semibold text-gray-700">Old Price</label>
          <input id="oldPrice" name="oldPrice" type="number" step="0.01" min="0" max="10000" required defaultValue={initial?.oldPrice} placeholder="Old Price" className={input} {...described('oldPrice')} />
          {err('oldPrice')}
        </div>
        <div>
          <label htmlFor="newPrice" className="mb-1 block text-sm font-semibold text-gray-700">New Price</label>
          <input id="newPrice" name="newPrice" type="number" step="0.01" min="0" max="10000" required defaultValue={initial?.newPrice} placeholder="New Price" className={input} {...described('newPrice')} />
          {err('newPrice')}
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="isbn" className="mb-1 block text-sm font-semibold text-gray-700">ISBN-13 <span className="font-normal text-gray-600">(optional)</span></label>
          <input id="isbn" name="isbn" inputMode="numeric" defaultValue={initial?.isbn} placeholder="978-0-306-40615-7" autoComplete="off" className={input} {...described('isbn')} />
          {err('isbn')}
        </div>
        <div>
          <label htmlFor="stock" className="mb-1 block text-sm font-semibold text-gray-700">Stock</label>
          <input id="stock" name="stock" type="number" step="1" min="0" max={MAX_STOCK} required defaultValue={initial?.stock} placeholder="Copies in stock" className={input} {...described('stock')} />
          {err('stock')}
        </div>
      </div>
      {editing && (
        <div>
          <label htmlFor="coverImage" className="mb-1 block text-sm font-semibold text-gray-700">Cover Image URL</label>
          <input id="coverImage" name="coverImage" required defaultValue={initial?.coverImage} placeholder="Cover Image URL" className={input} {...described('coverImage')} />
          {err('coverImage')}
        </div>
      )}
      <div>
        <label htmlFor="cover" className="mb-1 block text-sm font-semibold text-gray-700">{editing ? 'Upload a new cover (optional)' : 'Cover Image'}</label>
        <input
          id="cover"
          ref={fileInput}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="block w-full text-sm file:mr-4 file:rounded-md file:border-0 file:bg-gray-100 file:px-4 file:py-2 file:font-semibold"
          {...described('coverImage')}
        />
        {file && <p className="mt-1 text-sm text-gray-600">Selected: {file.name}</p>}
        {!editing && err('coverImage')}
        {progress !== null && (
          <div className="mt-2">
            <progress max={100} value={progress} className="h-2 w-full" aria-label="Upload progress" />
            <p className="text-xs text-gray-600">Uploading cover: {progress}%</p>
          </div>
        )}
      </div>
      <OfflineNotice />
      <button type="submit" disabled={busy || !online} className="w-full rounded-md bg-green-700 py-2 font-bold text-white hover:bg-green-800 disabled:opacity-60">
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
