import { buttonClass } from '../../../components/ui/button';
import { BOOK_FIELD_NAMES, BOOK_FIELD_SPECS, BookInputSchema, COVER_TYPES, coverFileProblem, MAX_PRICE_DOLLARS, type Book, type BookFieldName, type BookInput, type BookWritePermission, type FormSpec } from '@bookstore/contract';
import { useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { OfflineNotice } from '../../../components/ui/offline-notice';
import { useOnline } from '../../../lib/use-online';
import { IsbnLookupOffer } from './isbn-lookup-offer';

// The add and edit form, drawn from the book's field registry (contract/src/book-fields.ts `form`):
// its fields, labels, inputs and order, and which fields a role may change. It validates with the
// same schema the API uses. A field added to the registry with a `form` appears here by itself.

/** The fields the form asks for, in the registry's order. */
const FORM_FIELDS = BOOK_FIELD_NAMES.filter((name) => BOOK_FIELD_SPECS[name].form);
const formOf = (name: BookFieldName) => BOOK_FIELD_SPECS[name].form!;

/** Consecutive fields with one `row` stand side by side; consecutive fields of a section share its fieldset. */
type Row = BookFieldName[];
type Block = { section?: FormSpec['section']; rows: Row[] };
function layout(names: BookFieldName[]): Block[] {
  const blocks: Block[] = [];
  for (const name of names) {
    const { section, row } = formOf(name);
    let block = blocks.at(-1);
    if (!block || block.section !== section) blocks.push((block = { section, rows: [] }));
    const last = block.rows.at(-1);
    if (row && last && formOf(last[0]!).row === row) last.push(name);
    else block.rows.push([name]);
  }
  return blocks;
}
const BLOCKS = layout(FORM_FIELDS);

export interface BookFormValues {
  payload: BookInput;
  file: File | null;
}

interface BookFormProps {
  initial?: Book;
  /** A new book's ISBN to start from (the counter's unknown ISBN, issue 39): the lookup is offered at once. */
  startIsbn?: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  progress: number | null;
  /** Resolves true when the form should reset (a successful add). */
  onSubmit: (values: BookFormValues) => Promise<boolean>;
  /** What the signed-in role may change (the same policy the server checks): other fields are shown read-only and sent as they were. */
  canWrite?: (permission: BookWritePermission) => boolean;
}

const everything = () => true;

const input = 'w-full rounded-md border border-gray-300 p-2 focus:outline-2 focus:outline-accent';

/** The add and edit form; it validates with the same schema the API uses. */
export function BookForm({ initial, startIsbn, submitLabel, busyLabel, busy, progress, onSubmit, canWrite = everything }: BookFormProps) {
  const form = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isbn, setIsbn] = useState(initial?.isbn ?? startIsbn ?? '');
  const editing = Boolean(initial);
  const online = useOnline();
  const locked = (name: BookFieldName) => Boolean(initial) && !canWrite(BOOK_FIELD_SPECS[name].write);
  const mayEdit = canWrite('books.edit');

  /** A field's value as the form sends it (a locked field: as it was). */
  const valueOf = (name: BookFieldName, data: FormData): unknown => {
    const spec = BOOK_FIELD_SPECS[name];
    if (initial && locked(name)) return initial[name] ?? '';
    const form = spec.form!;
    if (form.input === 'checkbox') return data.get(name) === 'on';
    // On add, a placeholder until the file is uploaded; on edit, the URL field (empty keeps the old cover).
    if (form.input === 'cover') return editing ? data.get(name) ?? '' : file ? 'book-1' : '';
    const value = data.get(name) ?? '';
    // Empty keeps nothing of its own: the shop's default applies (null clears the book's own value, if it had one).
    if (spec.keptWhenAbsent && !spec.required && String(value).trim() === '') return initial?.[name] !== undefined ? null : undefined;
    return value;
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const coverUrl = String(data.get('coverUrl') ?? '').trim();
    const raw: Record<string, unknown> = Object.fromEntries(FORM_FIELDS.map((name) => [name, valueOf(name, data)]));
    // A chosen file wins over a cover URL; the server fetches the URL once and keeps its own copy.
    if (mayEdit) raw.coverUrl = file ? '' : coverUrl;
    const parsed = BookInputSchema.safeParse(raw);
    const next: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
    // The wire allows leaving stock out (a new book starts at 0); the form asks for it explicitly.
    for (const name of FORM_FIELDS) if (formOf(name).required && String(raw[name] ?? '').trim() === '') next[name] = `${BOOK_FIELD_SPECS[name].label} is required`;
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
      <input id={name} name={name} className={`${input} read-only:bg-gray-100`} readOnly={FORM_FIELDS.includes(name as BookFieldName) && locked(name as BookFieldName)} {...props} {...described(name)} />
      {err(name)}
    </div>
  );

  /** One field of the registry, as its `form` says. */
  const control = (name: BookFieldName) => {
    const spec = BOOK_FIELD_SPECS[name];
    const f = spec.form!;
    const label = f.hint ? <>{spec.label} <span className="font-normal text-gray-600">{f.hint}</span></> : spec.label;
    const value = name === 'isbn' && !initial ? startIsbn : initial?.[name];
    if (f.input === 'checkbox') {
      return (
        <div key={name} className="flex items-center gap-2">
          <input id={name} name={name} type="checkbox" disabled={locked(name)} defaultChecked={Boolean(value)} className="size-4 rounded" />
          <label htmlFor={name} className="text-sm font-semibold text-gray-700">{label}</label>
        </div>
      );
    }
    if (f.input === 'select') {
      return (
        <div key={name}>
          <label htmlFor={name} className="mb-1 block text-sm font-semibold text-gray-700">{label}</label>
          <select id={name} name={name} required={spec.required} disabled={locked(name)} defaultValue={String(value ?? '')} className={input} {...described(name)}>
            <option value="">{f.empty}</option>
            {f.options?.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
          {err(name)}
        </div>
      );
    }
    if (f.input === 'cover' && !editing) return null; // a new book's cover is the file or the URL below
    const numeric = f.input === 'number' || f.input === 'money';
    const box = field(name, label, {
      ...(numeric ? { type: 'number', step: f.input === 'money' ? '0.01' : f.step, min: f.input === 'money' ? '0' : f.min, max: f.input === 'money' ? MAX_PRICE_DOLLARS : f.max } : { autoComplete: 'off' }),
      required: spec.required || f.required,
      defaultValue: value === undefined ? undefined : String(value),
      placeholder: f.placeholder,
      inputMode: f.inputMode,
      maxLength: f.maxLength,
      ...(name === 'isbn' ? { onChange: (e) => setIsbn(e.target.value) } : {}),
    });
    if (name !== 'isbn') return box;
    return (
      <div key={name}>
        {box}
        {mayEdit && <IsbnLookupOffer isbn={isbn} form={form} canFillCover={!editing && !file} />}
      </div>
    );
  };
  const rows = (list: Row[]) =>
    list.map((row) => (row.length > 1 ? <div key={row.join()} className="grid gap-4 sm:grid-cols-2">{row.map(control)}</div> : control(row[0]!)));

  return (
    <form ref={form} onSubmit={submit} noValidate className="space-y-4">
      {BLOCKS.map((block) =>
        block.section === 'edition' ? (
          <fieldset key="edition" className="space-y-4 rounded-md border border-gray-200 p-3">
            <legend className="px-1 text-sm font-semibold text-gray-700">Edition details <span className="font-normal text-gray-600">(optional)</span></legend>
            {rows(block.rows)}
          </fieldset>
        ) : (
          rows(block.rows)
        ),
      )}
      {!mayEdit && <p className="text-sm text-gray-600">Your role can change the stock count only.</p>}
      <div hidden={!mayEdit}>
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
