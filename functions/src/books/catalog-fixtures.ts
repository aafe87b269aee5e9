import { CATEGORIES } from '@bookstore/contract';
import type { IndexedBook } from './search-index';

// Generated catalogues for the search unit tests and bench/search.ts: deterministic, with a
// vocabulary like a real shop's: a few hundred common English words and thousands of rarer
// invented ones (names, places, jargon), drawn with a skew so that some words are everywhere.

const COMMON = (
  'river stone garden winter summer shadow light ledger engine signal harbor forest letter city ' +
  'mountain island journey secret silver golden night morning promise silence thunder paper glass ' +
  'clock lantern market bridge orchard castle ocean desert storm window mirror compass ' +
  'kingdom voyage archive atlas circuit harvest meadow echo ember frost maple willow raven falcon ' +
  'cipher quarter station canyon tide beacon ridge valley hollow summit spark whisper'
).split(' ');
const SYLLABLES = 'ka lo mi ren sa tor vel dan pri mo zu fe gal nis or bel cor hal qui ste'.split(' ');
const RARE = SYLLABLES.flatMap((a) => SYLLABLES.flatMap((b) => SYLLABLES.map((c) => a + b + c)));
const FIRST = 'Ada Bruno Clara Dmitri Elena Farid Greta Hugo Ines Jonas Kira Liam Maya Nils Omar Pia'.split(' ');
const LAST = 'Okafor Lindqvist Moreau Tanaka Alvarez Novak Brennan Haddad Castillo Weber Rossi Kowalski'.split(' ');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function generatedBooks(count: number, seed = 7): IndexedBook[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const skewed = <T>(xs: readonly T[]) => xs[Math.floor(r() ** 3 * xs.length)]!; // low indexes far likelier
  const word = () => (r() < 0.5 ? pick(COMMON) : skewed(RARE));
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  return Array.from({ length: count }, (_, i) => {
    const title = `The ${cap(word())} of ${cap(word())} ${cap(skewed(RARE))}`;
    const description = Array.from({ length: 40 }, word).join(' ') + '.';
    return {
      id: `gen${String(i).padStart(6, '0')}`,
      title,
      author: `${pick(FIRST)} ${cap(skewed(RARE))} ${pick(LAST)}`,
      category: pick(CATEGORIES),
      description,
      coverImage: `book-${1 + (i % 23)}`,
      titleKey: title.toLowerCase(),
      priceCents: 500 + Math.floor(r() * 9500),
      createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
    };
  });
}

/** Books the search tests look for, among the generated ones. */
export const KNOWN_BOOKS: IndexedBook[] = [
  { id: 'hp1', title: "Harry Potter and the Philosopher's Stone", author: 'J. K. Rowling', category: 'fiction', description: 'A boy learns he is a wizard.', coverImage: 'book-1', titleKey: "harry potter and the philosopher's stone", priceCents: 1299, createdAt: '2025-01-01T00:00:00.000Z' },
  { id: 'cafe', title: 'Café Éclair: Pâtisserie at Home', author: 'Zoë Brontë', category: 'business', description: 'Running a small bakery.', coverImage: 'book-2', titleKey: 'cafe eclair: patisserie at home', priceCents: 2450, createdAt: '2025-01-02T00:00:00.000Z' },
  { id: 'dune', title: 'Dune Messiah', author: 'Frank Herbert', category: 'adventure', description: 'Desert politics.', coverImage: 'book-3', titleKey: 'dune messiah', priceCents: 999, createdAt: '2025-01-03T00:00:00.000Z' },
  { id: 'quiet', title: 'The Quiet Ledger', author: 'Mara Ellison', category: 'business', description: 'A practical guide to honest numbers.', coverImage: 'book-4', titleKey: 'the quiet ledger', priceCents: 1999, createdAt: '2025-01-04T00:00:00.000Z' },
  // 'potter' only in the description: must rank below the title match.
  { id: 'clay', title: 'Working with Clay', author: 'Ana Ruiz', category: 'technology', description: 'A potter explains the wheel, harry or not.', coverImage: 'book-5', titleKey: 'working with clay', priceCents: 1500, createdAt: '2025-01-05T00:00:00.000Z' },
];
