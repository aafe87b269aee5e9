import {
  allCountries, countryName, hasPostcodes, hasRegions, isStreetAddress, legacyCountryCode, legacyRegionCode, placeProblems,
  STREET_MESSAGE, type Address, type Country,
} from '@bookstore/contract';
import type { QuotePlace } from './get-quote';

// The checkout's address as the fields hold it (issue 36: the country and, where it has them, the
// region are chosen from lists; the zipcode is checked against the country's format). The contract's
// own checks (contract/src/places.ts) say what is wrong, in the words the server would use.

export interface AddressDraft {
  street: string;
  city: string;
  country: string;
  state: string;
  zipcode: string;
}
export type AddressField = keyof AddressDraft;
export const EMPTY_ADDRESS: AddressDraft = { street: '', city: '', country: '', state: '', zipcode: '' };

/** Each field's problem, as the order would be refused for it (empty fields are the browser's `required`). */
export function addressProblems(draft: AddressDraft): Partial<Record<AddressField, string>> {
  const problems: Partial<Record<AddressField, string>> = {};
  const place = placeProblems({ country: draft.country.trim() || undefined, region: draft.state.trim() || undefined, postcode: draft.zipcode.trim() || undefined }, { complete: false, freeRegion: true });
  if (place.country) problems.country = place.country;
  if (place.region) problems.state = place.region;
  if (place.postcode) problems.zipcode = place.postcode;
  if (draft.street.trim() && !isStreetAddress(draft.street)) problems.street = STREET_MESSAGE;
  return problems;
}

/** What the quote may be asked with: only the parts that are already right, so typing never gets a 400. */
export function quotePlaceOf(draft: AddressDraft): QuotePlace {
  const problems = addressProblems(draft);
  const country = draft.country && !problems.country ? draft.country : undefined;
  if (!country) return {};
  return {
    country,
    ...(hasRegions(country) && draft.state && !problems.state ? { region: draft.state } : {}),
    ...(hasPostcodes(country) && draft.zipcode.trim() && !problems.zipcode ? { zipcode: draft.zipcode.trim() } : {}),
  };
}

/** The countries to offer: the shop's own first; every country when the shop reaches every other one too. */
export function countryChoices(named: readonly string[], everyCountry: boolean): { ours: Country[]; others: Country[] } {
  const ours = named.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const others = everyCountry ? allCountries().filter((c) => !named.includes(c.code)) : [];
  return { ours, others };
}

/** An earlier order's address for the form: codes for a country and region typed before issue 36 ('USA', 'Illinois'). */
export function draftFromOrder(address: Address): AddressDraft {
  const country = legacyCountryCode(address.country) ?? '';
  const state = country && hasRegions(country) ? (legacyRegionCode(country, address.state) ?? '') : address.state;
  return { street: address.street, city: address.city, country, state, zipcode: address.zipcode };
}
