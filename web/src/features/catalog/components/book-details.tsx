import { BOOK_FORMAT_LABELS, formatCount, formatLanguage, formatPublicationDate, type Book } from '@bookstore/contract';

// The book page's details of the edition (issue 26), as a bookshop lists them. Rendered by the
// same component on the server (the pages function) and in the browser; every value is formatted
// with the shop's locale, so the served and the hydrated text agree. Only the details the book has.

export function BookDetails({ book }: { book: Book }) {
  const rows: [string, string | undefined][] = [
    ['ISBN', book.isbn],
    ['Publisher', book.publisher],
    ['Publication date', book.publishedOn && formatPublicationDate(book.publishedOn)],
    ['Pages', book.pages ? formatCount(book.pages) : undefined],
    ['Format', book.format && BOOK_FORMAT_LABELS[book.format]],
    ['Language', book.language && formatLanguage(book.language)],
  ];
  const shown = rows.filter((row): row is [string, string] => Boolean(row[1]));
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="book-details-heading" className="rounded-md border border-gray-200 p-4">
      <h2 id="book-details-heading" className="mb-2 text-lg font-semibold">Book Details</h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {shown.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-semibold text-gray-700">{term}</dt>
            <dd className="break-words text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
