// ISBNs: the check digits of ISBN-13 and ISBN-10 and the conversion between them. Plain functions
// (no zod), shared by the book form, the import and the ISBN lookup route (issue 26).

/** ISBN-13 check digit: weights 1,3,1,3... over the 13 digits sum to a multiple of 10. */
export function isValidIsbn13(value: string): boolean {
  if (!/^97[89][0-9]{10}$/.test(value)) return false;
  const sum = [...value].reduce((acc, digit, i) => acc + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return sum % 10 === 0;
}

/** ISBN-10 check digit: weights 10..1 (X = 10, last place only) sum to a multiple of 11. */
export function isValidIsbn10(value: string): boolean {
  if (!/^[0-9]{9}[0-9X]$/.test(value)) return false;
  const sum = [...value].reduce((acc, ch, i) => acc + (ch === 'X' ? 10 : Number(ch)) * (10 - i), 0);
  return sum % 11 === 0;
}

/** The ISBN-13 of an ISBN-10 (prefix 978, check digit recomputed). */
export function isbn10To13(isbn10: string): string {
  const body = `978${isbn10.slice(0, 9)}`;
  const sum = [...body].reduce((acc, digit, i) => acc + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

/** Spaces and hyphens removed, a lower-case x as X: how an ISBN is compared. */
export function compactIsbn(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * The 13 digits of a valid ISBN-13 or ISBN-10 (typed with or without hyphens), or null. What
 * the shop stores and looks up is always the ISBN-13.
 */
export function toIsbn13(value: string): string | null {
  const compact = compactIsbn(value);
  if (isValidIsbn13(compact)) return compact;
  if (isValidIsbn10(compact)) return isbn10To13(compact);
  return null;
}

/** True when the text has the shape of an ISBN (10 or 13 characters) whatever its check digit: the form offers a lookup then. */
export function looksLikeIsbn(value: string): boolean {
  return /^(?:97[89][0-9]{10}|[0-9]{9}[0-9X])$/.test(compactIsbn(value));
}

export const ISBN_MESSAGE = 'ISBN must be a valid ISBN-13 or ISBN-10';
