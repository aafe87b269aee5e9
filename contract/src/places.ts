import { COUNTRY_ROWS, type CountryRow } from './places-data';
import { zipBelongsTo } from './us-zip-prefixes';

// Places are chosen, not typed (issue 36): a country is its ISO 3166-1 alpha-2 code on the wire and in
// storage ('US'), a region its ISO 3166-2 subdivision code where the country has a list here ('IL'),
// a postcode is checked against its country's format. The checkout offers these as lists; the quote,
// the order and the shop's settings refuse anything else with a message that says what to choose.
// Zod-free: the checkout's fields and the order pages read these too.

export interface Country {
  code: string;
  name: string;
}
export type Region = Country;

const BY_CODE = new Map<string, CountryRow>(COUNTRY_ROWS.map((row) => [row[0], row]));

// CLDR's English names, which every browser and Node carry: the shop's locale is English (locale.ts).
let names: Intl.DisplayNames | undefined;
const nameOf = (code: string): string => (names ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' })).of(code) ?? code;

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && BY_CODE.has(value);
}

/** A stored country as people read it: a code's name ('US' -> 'United States'); free text from before issue 36 as it was typed. */
export function countryName(value: string): string {
  return isCountryCode(value) ? nameOf(value) : value;
}

let sorted: readonly Country[] | undefined;
/** Every country, by name (the checkout's list when the shop posts everywhere, the settings' lists). */
export function allCountries(): readonly Country[] {
  return (sorted ??= COUNTRY_ROWS.map(([code]) => ({ code, name: nameOf(code) })).sort((a, b) => a.name.localeCompare(b.name, 'en')));
}

const US_STATES: readonly Region[] = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'],
  ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'], ['HI', 'Hawaii'],
  ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'],
  ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MN', 'Minnesota'], ['MS', 'Mississippi'],
  ['MO', 'Missouri'], ['MT', 'Montana'], ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'], ['NY', 'New York'], ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'],
  ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'], ['SD', 'South Dakota'],
  ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'], ['WA', 'Washington'],
  ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
  // Territories and the armed forces' addresses take US zipcodes and the USPS's codes.
  ['AS', 'American Samoa'], ['GU', 'Guam'], ['MP', 'Northern Mariana Islands'], ['PR', 'Puerto Rico'], ['VI', 'U.S. Virgin Islands'],
  ['AA', 'Armed Forces Americas'], ['AE', 'Armed Forces Europe'], ['AP', 'Armed Forces Pacific'],
].map(([code, name]) => ({ code: code!, name: name! }));

const CA_PROVINCES: readonly Region[] = [
  ['AB', 'Alberta'], ['BC', 'British Columbia'], ['MB', 'Manitoba'], ['NB', 'New Brunswick'], ['NL', 'Newfoundland and Labrador'],
  ['NS', 'Nova Scotia'], ['NT', 'Northwest Territories'], ['NU', 'Nunavut'], ['ON', 'Ontario'], ['PE', 'Prince Edward Island'],
  ['QC', 'Quebec'], ['SK', 'Saskatchewan'], ['YT', 'Yukon'],
].map(([code, name]) => ({ code: code!, name: name! }));

/**
 * Countries whose addresses name a region from a list: the regions that can price post or tax. Add a
 * country here before a zone or tax rate names one of its regions (the settings refuse it until then).
 */
export const REGIONS: Readonly<Record<string, readonly Region[]>> = { US: US_STATES, CA: CA_PROVINCES };

export const regionsOf = (country: string | undefined): readonly Region[] => (country ? REGIONS[country] ?? [] : []);
export const hasRegions = (country: string | undefined): boolean => regionsOf(country).length > 0;
export const isRegionOf = (country: string | undefined, region: unknown): boolean => regionsOf(country).some((r) => r.code === region);

/** 'Illinois' for ('US', 'IL'); anything else as stored. */
export function regionName(country: string, region: string): string {
  return regionsOf(country).find((r) => r.code === region)?.name ?? region;
}

/** What the field is called where the country is: a US zipcode, everyone else's postcode. */
export const postcodeWord = (country: string | undefined): string => (country === 'US' ? 'zipcode' : 'postcode');

/** The postcode's letters and digits, upper case, without spaces or dashes: what patterns and prefixes match. */
export const postcodeKey = (value: string | undefined): string => (value ?? '').toUpperCase().replace(/[\s-]/g, '');

const patterns = new Map<string, RegExp>();
function postcodePattern(country: string): RegExp | undefined {
  const source = BY_CODE.get(country)?.[1];
  if (!source) return undefined;
  let pattern = patterns.get(country);
  if (!pattern) patterns.set(country, (pattern = new RegExp(`^(?:${source})$`)));
  return pattern;
}

export const hasPostcodes = (country: string | undefined): boolean => !!country && postcodePattern(country) !== undefined;
export const postcodeExample = (country: string): string => BY_CODE.get(country)?.[2] ?? '';

/** A postcode as stored: upper case, single spaces, as written otherwise ('m5v  2t6' -> 'M5V 2T6'). */
export const canonicalPostcode = (value: string): string => value.toUpperCase().replace(/\s+/g, ' ').trim();

export function isPostcodeOf(country: string, value: string): boolean {
  return postcodePattern(country)?.test(postcodeKey(value)) ?? false;
}

// --- What is wrong with a place, in words that say what to choose -------------------------------------

export const COUNTRY_MESSAGE = 'Choose a country from the list (send its two-letter ISO 3166-1 code, such as US)';

export interface PlaceFields {
  country?: string;
  region?: string;
  postcode?: string;
}
export type PlaceProblems = Partial<Record<keyof PlaceFields, string>>;

export interface PlaceRules {
  /** An address to deliver to: every part its country has must be there. A quote may ask with less. */
  complete: boolean;
  /** Free text is kept as the region of a country without a list (an address's 'State / province'). */
  freeRegion: boolean;
}

/** Each field's problem (none: a place the shop can price). */
export function placeProblems(place: PlaceFields, rules: PlaceRules): PlaceProblems {
  const problems: PlaceProblems = {};
  const { country, region, postcode } = place;
  if (!country) {
    if (rules.complete) problems.country = 'Choose your country';
    if (postcode) problems.postcode = 'Choose the country first: a postcode is checked against its country';
    if (region) problems.region = 'Choose the country first: a region is chosen from its country';
    return problems;
  }
  if (!isCountryCode(country)) {
    problems.country = COUNTRY_MESSAGE;
    return problems;
  }
  const name = countryName(country);
  if (hasRegions(country)) {
    const kind = country === 'US' ? 'state' : 'province';
    if (!region) {
      if (rules.complete) problems.region = `Choose your ${kind}`;
    } else if (!isRegionOf(country, region)) {
      problems.region = `Choose a ${kind} of ${name} from the list (its code, such as ${regionsOf(country)[0]!.code})`;
    }
  } else if (region && !rules.freeRegion) {
    problems.region = `${name} has no regions to choose from: leave the region out`;
  }
  const word = postcodeWord(country);
  if (hasPostcodes(country)) {
    if (!postcode) {
      if (rules.complete) problems.postcode = `Enter your ${word}`;
    } else if (!isPostcodeOf(country, postcode)) {
      problems.postcode = `Enter a ${name} ${word}, such as ${postcodeExample(country)}`;
    } else if (country === 'US' && region && isRegionOf(country, region) && !zipBelongsTo(region, postcodeKey(postcode))) {
      // Tax and post are priced by the state: a zipcode elsewhere must not buy another state's rate (issue 55).
      problems.postcode = `${postcodeKey(postcode).slice(0, 5)} is not a zipcode in ${regionName(country, region)}: check the zipcode and the state`;
    }
  } else if (postcode) {
    problems.postcode = `${name} has no postcodes: leave the ${word} empty`;
  }
  return problems;
}

/** Local delivery needs somewhere to knock: a street address has letters, not only a number or a zipcode. */
export const isStreetAddress = (street: string): boolean => /\p{L}/u.test(street) && street.trim().length >= 3;
export const STREET_MESSAGE = 'Enter your street address (the street and house number)';
