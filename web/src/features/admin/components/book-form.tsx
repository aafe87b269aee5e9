import { buttonClass } from '../../../components/ui/button';
import { BOOK_FORMAT_LABELS, BOOK_FORMATS, BookInputSchema, CATEGORIES, COVER_TYPES, coverFileProblem, MAX_BOOK_WEIGHT_GRAMS, MAX_PAGES, MAX_PRICE_DOLLARS, MAX_STOCK, type Book, type BookInput } from '@bookstore/contract';
import { useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { OfflineNotice } from '../../../components/ui/offline-notice';
import { useOnline } from '../../../lib/use-online';
import { IsbnLookupOffer } from './isbn-lookup-offer';

export interface BookFormValues {
  payload: BookInput;
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
  /** Only the stock may change (a bookseller's role): every other field is shown read-only and sent as it was. */
  stockOnly?: boolean;
}

const PRICE_LABELS = { oldPrice: 'Old Price', newPrice: 'New Price' };

const input = 'w-full rounded-md border border-gray-300 p-2 focus:outline-2 focus:outline-accent';

/** The add and edit form; it validates with the same schema the API uses. */
export function BookForm({ initial, submitLabel, busyLabel, busy, progress, onSubmit, stockOnly = false }: BookFormProps) {
  const form = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isbn, setIsbn] = useState(initial?.isbn ?? '');
  const editing = Boolean(initial);
  const online = useOnline();

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const locked = stockOnly && initial;
    const coverUrl = String(data.get('coverUrl') ?? '').trim();
    const raw = locked ? { ...initial, author: initial.author ?? '', isbn: initial.isbn ?? '', stock: data.get('stock') } : {
      title: data.get('title'),
      author: data.get('author') ?? '',
      description: data.get('description'),
      category: data.get('category'),
      trending: data.get('trending') === 'on',
      oldPrice: data.get('oldPrice'),
      newPrice: data.get('newPrice'),
      // On add, a placeholder until the file is uploaded; on edit, the URL field (empty keeps the old cover).
      coverImage: editing ? data.get('coverImage') ?? '' : file ? 'book-1' : '',
      // A chosen file wins over a cover URL; the server fetches the URL once and keeps its own copy.
      coverUrl: file ? '' : coverUrl,
      isbn: data.get('isbn') ?? '',
      publisher: data.get('publisher') ?? '',
      publishedOn: data.get('publishedOn') ?? '',
      pages: data.get('pages') ?? '',
      format: data.get('format') ?? '',
      language: data.get('language') ?? '',
      stock: data.get('stock'),
      // Empty: the shop's default weight applies (null clears the book's own weight, if it had one).
      weightGrams: String(data.get('weightGrams') ?? '').trim() !== '' ? data.get('weightGrams') : initial?.weightGrams ? null : undefined,
    };
    const parsed = BookInputSchema.safeParse(raw);
    const next: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
    // The wire allows leaving stock out (a new book starts at 0); the form asks for it explicitly.
    if (String(raw.stock ?? '').trim() === '') next.stock = 'Stock is required';
    if (!editing && !file && !coverUrl) next.coverImage = 'Choose a cover image';
    const fileProblem = file && coverFileProblem(file); // the upload's own limits, before sending
    if (fileProblem) next.coverImage = fileProblem.message;
    setErrors(next);
    if (!parsed.success || Object.keys(next).length) return;
    const reset = await onSubmit({ payload: parsed.data, file });
    if (reset) {
      form.current?.reset();
      setIsbn('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const err = (name: string) => errors[name] && <p id={`${name}-error`} className="mt-1 text-sm text-danger">{errors[name]}</p>;
  const described = (name: string) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {});
  /** A labelled input with its error line under it. */
  const field = (name: string, label: ReactNode, props: InputHTMLAttributes<HTMLInputElement>) => (
    <div key={name}>
      <label htmlFor={name} className="mb-1 block text-sm font-semibold text-gray-700">{label}</label>
      <input id={name} name={name} className={`${input} read-only:bg-gray-100`} readOnly={stockOnly && name !== 'stock'} {...props} {...described(name)} />
      {err(name)}
    </div>
  );

  return (
    <form ref={form} onSubmit={submit} noValidate className="space-y-4">
      {field('title', 'Title', { required: true, defaultValue: initial?.title, placeholder: 'Enter book title' })}
      {field('author', 'Author', { defaultValue: initial?.author, placeholder: 'Enter author name', autoComplete: 'off' })}
      {field('description', 'Description', { required: true, defaultValue: initial?.description, placeholder: 'Enter book description' })}
      <div>
        <label htmlFor="category" className="mb-1 block text-sm font-semibold text-gray-700">Category</label>
        <select id="category" name="category" required disabled={stockOnly} defaultValue={initial?.category ?? ''} className={input} {...described('category')}>
          <option value="">Choose A Category</option>
          {CATEGORIES.map((c) => <option key={c} value={c}>{c[0]!.toUpperCase() + c.slice(1)}</option>)}
        </select>
        {err('category')}
      </div>
      <div className="flex items-center gap-2">
        <input id="trending" name="trending" type="checkbox" disabled={stockOnly} defaultChecked={initial?.trending} className="size-4 rounded" />
        <label htmlFor="trending" className="text-sm font-semibold text-gray-700">Trending</label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {(['oldPrice', 'newPrice'] as const).map((name) =>
          field(name, PRICE_LABELS[name], { type: 'number', step: '0.01', min: '0', max: MAX_PRICE_DOLLARS, required: true, defaultValue: initial?.[name], placeholder: PRICE_LABELS[name] }),
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          {field('isbn', <>ISBN-13 or ISBN-10 <span className="font-normal text-gray-600">(optional)</span></>, { inputMode: 'numeric', defaultValue: initial?.isbn, placeholder: '978-0-306-40615-7', autoComplete: 'off', onChange: (e) => setIsbn(e.target.value) })}
          {!stockOnly && <IsbnLookupOffer isbn={isbn} form={form} canFillCover={!editing && !file} />}
        </div>
        {field('stock', 'Stock', { type: 'number', step: '1', min: '0', max: MAX_STOCK, required: true, defaultValue: initial?.stock, placeholder: 'Copies in stock' })}
      </div>
      {field('weightGrams', <>Weight in grams <span className="font-normal text-gray-600">(optional, for postage)</span></>, { type: 'number', step: '1', min: '1', max: MAX_BOOK_WEIGHT_GRAMS, defaultValue: initial?.weightGrams, placeholder: "Empty: the shop's default weight" })}
      <fieldset className="space-y-4 rounded-md border border-gray-200 p-3">
        <legend className="px-1 text-sm font-semibold text-gray-700">Edition details <span className="font-normal text-gray-600">(optional)</span></legend>
        {field('publisher', 'Publisher', { defaultValue: initial?.publisher, maxLength: 120, autoComplete: 'off' })}
        <div className="grid gap-4 sm:grid-cols-2">
          {field('publishedOn', <>Publication date <span className="font-normal text-gray-600">(YYYY, YYYY-MM or YYYY-MM-DD)</span></>, { defaultValue: initial?.publishedOn, placeholder: '2019-04-02', inputMode: 'numeric', autoComplete: 'off' })}
          {field('pages', 'Pages', { type: 'number', step: '1', min: '1', max: MAX_PAGES, defaultValue: initial?.pages })}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="format" className="mb-1 block text-sm font-semibold text-gray-700">Format</label>
            <select id="format" name="format" disabled={stockOnly} defaultValue={initial?.format ?? ''} className={input} {...described('format')}>
              <option value="">Not given</option>
              {BOOK_FORMATS.map((f) => <option key={f} value={f}>{BOOK_FORMAT_LABELS[f]}</option>)}
            </select>
            {err('format')}
          </div>
          {field('language', <>Language <span className="font-normal text-gray-600">(BCP 47, e.g. en, en-GB)</span></>, { defaultValue: initial?.language, placeholder: 'en', autoComplete: 'off', maxLength: 35 })}
        </div>
      </fieldset>
      {editing && field('coverImage', 'Cover Image URL', { required: true, defaultValue: initial?.coverImage, placeholder: 'Cover Image URL' })}
      {stockOnly && <p className="text-sm text-gray-600">Your role can change the stock count only.</p>}
      <div hidden={stockOnly}>
        <label htmlFor="cover" className="mb-1 block text-sm font-semibold text-gray-700">{editing ? 'Upload a new cover (optional)' : 'Cover Image'}</label>
        <input
          id="cover"
          ref={fileInput}
          type="file"
          accept={COVER_TYPES.join(',')}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="block w-full text-sm file:mr-4 file:rounded-md file:border-0 file:bg-gray-100 file:px-4 file:py-2 file:font-semibold"
          {...described('coverImage')}
        />
        {file && <p className="mt-1 text-sm text-gray-600">Selected: {file.name}</p>}
        {!editing && err('coverImage')}
        <div className="mt-3">
          {field('coverUrl', <>{editing ? 'Or a new cover from a URL' : 'Or a cover URL'} <span className="font-normal text-gray-600">(https://; fetched once and kept by the shop)</span></>, { type: 'url', inputMode: 'url', placeholder: 'https://', autoComplete: 'off', maxLength: 2048 })}
        </div>
        {progress !== null && (
          <div className="mt-2">
            <progress max={100} value={progress} className="h-2 w-full" aria-label="Upload progress" />
            <p className="text-xs text-gray-600">Uploading cover: {progress}%</p>
          </div>
        )}
      </div>
      <OfflineNotice />
      <button type="submit" disabled={busy || !online} className={buttonClass('primary', 'md', 'w-full')}>
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
