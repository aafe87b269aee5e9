import {
  BOOK_FIELD_NAMES, BOOK_FIELD_SPECS, BookIdSchema, BookInputSchema, FREE_TEXT_FIELDS, IMPORT_COLUMNS, IMPORT_DETAIL_COLUMNS, IMPORT_OPTIONAL_COLUMNS,
  IMPORT_REQUIRED_COLUMNS, looksLikeFormula, type BookFieldName, type BookInput, type ImportRecord, type ImportRowError,
} from '@bookstore/contract';

// Validation of imported rows with the contract's BookInputSchema (the admin form's schema), so an
// imported book obeys exactly the rules of one added by hand. What a row changes on a book it
// updates follows each field's `csv.update` in the registry (contract/src/book-fields.ts).

export interface ImportRow {
  row: number;
  /** Given in an `id` column: upsert that book. Otherwise the row is matched by ISBN. */
  id?: string;
  input: BookInput;
  /** The fields this row sets on a book it updates; the others keep the stored value (a column left out or left empty, as the registry says). */
  given: BookFieldName[];
}

/** Empty cells of these columns mean absent (the needed ones stay '' and are refused as missing). */
const OPTIONAL = new Set([...IMPORT_COLUMNS, ...IMPORT_DETAIL_COLUMNS, ...IMPORT_OPTIONAL_COLUMNS].filter((c) => !IMPORT_REQUIRED_COLUMNS.includes(c)));
const TRUE = new Set(['true', 'yes', '1', 'y']);
const FALSE = new Set(['false', 'no', '0', 'n']);

/** The fields a valid row sets on a book it updates. */
function givenFields(record: ImportRecord, values: Record<string, unknown>, input: BookInput): BookFieldName[] {
  return BOOK_FIELD_NAMES.filter((name) => {
    const update = BOOK_FIELD_SPECS[name].csv?.update;
    if (update === 'replace') return true;
    // A cover URL (fetched later, import.covers.ts) gives a cover too.
    if (update === 'blank-keeps') return name === 'coverImage' ? input.coverImage !== '' || input.coverUrl !== undefined : values[name] !== undefined;
    if (update === 'absent-keeps') return name in record; // a column in the file, even empty, sets it
    return false;
  });
}

/** CSV gives text for everything: empty optional cells mean absent, "true"/"false" mean booleans. */
function normalise(record: ImportRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(record)) {
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (OPTIONAL.has(key) && (value === '' || value === null || value === undefined)) continue;
    if (key === 'trending' && typeof value === 'string') {
      const lower = value.toLowerCase();
      out[key] = TRUE.has(lower) ? true : FALSE.has(lower) ? false : value;
      continue;
    }
    out[key] = value;
  }
  return out;
}

export function validateRecords(records: ImportRecord[], firstRow = 1): { rows: ImportRow[]; errors: ImportRowError[] } {
  const rows: ImportRow[] = [];
  const errors: ImportRowError[] = [];
  const seen = new Map<string, number>(); // key (id or ISBN) -> first row that used it
  records.forEach((record, index) => {
    const row = firstRow + index;
    if (typeof record.__invalid === 'string') {
      errors.push({ row, field: '_', message: record.__invalid });
      return;
    }
    const rowErrors: ImportRowError[] = [];
    if (typeof record.__extraFields === 'number') {
      rowErrors.push({ row, field: '_', message: `This row has ${record.__extraFields} more field(s) than the header (an unquoted comma?)` });
    }
    for (const field of FREE_TEXT_FIELDS) {
      const raw = record[field];
      if (typeof raw === 'string' && looksLikeFormula(raw)) {
        rowErrors.push({ row, field, message: `${field} starts with ${JSON.stringify(raw.trimStart()[0] ?? raw[0])}: a spreadsheet would run it as a formula. Remove the sign or start with a letter.` });
      }
    }
    const values = normalise(record);
    // A distributor's file often puts the cover's address in coverImage: it is fetched as a coverUrl.
    if (typeof values.coverImage === 'string' && /^https?:\/\//i.test(values.coverImage) && values.coverUrl === undefined) {
      values.coverUrl = values.coverImage;
      delete values.coverImage;
    }
    values.coverImage ??= ''; // empty: required for a new book, keeps the stored cover on an update
    let id: string | undefined;
    if (values.id !== undefined) {
      const parsed = BookIdSchema.safeParse(values.id);
      if (parsed.success) id = parsed.data;
      else rowErrors.push({ row, field: 'id', message: parsed.error.issues[0]!.message });
    }
    const parsed = BookInputSchema.safeParse(values);
    if (!parsed.success) {
      const fields = new Set<string>(rowErrors.map((e) => e.field)); // one error per field
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '_');
        if (fields.has(field)) continue;
        fields.add(field);
        rowErrors.push({ row, field, message: issue.message });
      }
    } else if (!id && !parsed.data.isbn && !rowErrors.some((e) => e.field === 'id')) {
      rowErrors.push({ row, field: 'isbn', message: 'ISBN is required (or an id column), so that importing the file again updates this book instead of adding it twice' });
    }
    if (rowErrors.length > 0 || !parsed.success) {
      errors.push(...rowErrors);
      return;
    }
    const key = id ? `id:${id}` : `isbn:${parsed.data.isbn}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      errors.push({ row, field: id ? 'id' : 'isbn', message: `Same ${id ? 'id' : 'ISBN'} as row ${earlier}` });
      return;
    }
    seen.set(key, row);
    rows.push({
      row,
      ...(id ? { id } : {}),
      input: parsed.data,
      given: givenFields(record, values, parsed.data),
    });
  });
  return { rows, errors };
}
