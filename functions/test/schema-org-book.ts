// A check of a JSON-LD object against the schema.org fields the shop uses for a Book, at run time
// (the function's source is also typed with schema-dts, schema.org's vocabulary as TypeScript).
// Each property must be one schema.org gives Book (its own, or CreativeWork's and Thing's it
// inherits), with a value of the type schema.org expects there. Returns the problems found.

const BOOK_FORMAT_TYPE = ['https://schema.org/AudiobookFormat', 'https://schema.org/EBook', 'https://schema.org/GraphicNovel', 'https://schema.org/Hardcover', 'https://schema.org/Paperback'];
const ITEM_AVAILABILITY = ['https://schema.org/InStock', 'https://schema.org/OutOfStock', 'https://schema.org/PreOrder', 'https://schema.org/LimitedAvailability'];
const ISO_DATE = /^\d{4}(?:-\d{2}(?:-\d{2})?)?$/;

type Check = (value: unknown) => boolean;
const text: Check = (v) => typeof v === 'string' && v.trim().length > 0;
const url: Check = (v) => typeof v === 'string' && /^https?:\/\/[^\s]+$/.test(v);
const typed = (type: string, fields: Record<string, Check>): Check => (v) =>
  typeof v === 'object' && v !== null && (v as Record<string, unknown>)['@type'] === type && Object.entries(fields).every(([k, check]) => check((v as Record<string, unknown>)[k]));

/** Book's properties (Book, CreativeWork, Thing) that the shop writes, with schema.org's expected type. */
const BOOK_PROPERTIES: Record<string, Check> = {
  '@context': (v) => v === 'https://schema.org',
  '@type': (v) => v === 'Book',
  '@id': url,
  name: text, // Thing
  description: text, // Thing
  image: url, // Thing: URL or ImageObject
  url, // Thing
  author: (v) => typed('Person', { name: text })(v) || typed('Organization', { name: text })(v), // CreativeWork
  alternativeHeadline: text, // CreativeWork: Text (the subtitle, issue 37)
  genre: text, // CreativeWork: Text or URL
  publisher: (v) => typed('Organization', { name: text })(v) || typed('Person', { name: text })(v), // CreativeWork
  datePublished: (v) => typeof v === 'string' && ISO_DATE.test(v), // CreativeWork: Date (ISO 8601)
  inLanguage: (v) => typeof v === 'string' && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(v), // CreativeWork: IETF BCP 47
  isbn: (v) => typeof v === 'string' && /^(?:\d{13}|\d{9}[\dX])$/.test(v), // Book
  numberOfPages: (v) => Number.isInteger(v) && (v as number) > 0, // Book: Integer
  bookFormat: (v) => typeof v === 'string' && BOOK_FORMAT_TYPE.includes(v), // Book: BookFormatType
  offers: typed('Offer', {
    price: (v) => typeof v === 'string' && /^\d+(?:\.\d{1,2})?$/.test(v),
    priceCurrency: (v) => typeof v === 'string' && /^[A-Z]{3}$/.test(v),
    availability: (v) => typeof v === 'string' && ITEM_AVAILABILITY.includes(v),
    url,
  }), // CreativeWork
};

export function schemaOrgBookProblems(ld: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(ld)) {
    const check = BOOK_PROPERTIES[key];
    if (!check) problems.push(`${key} is not a schema.org property of Book`);
    else if (!check(value)) problems.push(`${key} has a value schema.org does not expect there: ${JSON.stringify(value)}`);
  }
  return problems;
}

/** The JSON-LD objects in an HTML document. */
export function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
}
