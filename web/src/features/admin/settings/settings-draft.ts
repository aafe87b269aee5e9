import { countryName, formatCents, regionName, toCents, type FulfilmentSettings, type Place } from '@bookstore/contract';

// The settings form works on text (what the fields hold); the wire has cents, grams and basis
// points. Lists are one entry a line: places by code (issue 36), 'US', 'US-CA' (a country and one
// of its regions, ISO 3166-2) or '*' (everywhere else), bands 'grams, price'.

export interface ZoneDraft { name: string; places: string; rates: string }
export interface Draft {
  pickup: { enabled: boolean; address: string; hours: string; holdDays: string };
  local: { enabled: boolean; price: string; country: string; zipcodes: string };
  post: { enabled: boolean; freeFrom: string; zones: ZoneDraft[] };
  defaultWeightGrams: string;
  tax: { mode: 'included' | 'added'; label: string; rate: string; regions: string };
}

const lines = (text: string) => text.split(/\r?\n|;/).map((l) => l.trim()).filter(Boolean);
export const placeText = (p: Place) => (p.region ? `${p.country}-${p.region}` : p.country);
/** 'US-CA', 'us-ca' or 'US / CA' to a place; anything else is passed on for the schema to refuse in its words. */
export function placeOf(line: string): Place {
  const match = /^([A-Za-z]{2})\s*(?:[-/]\s*([A-Za-z0-9]{1,3}))?$/.exec(line.trim());
  if (!match) return { country: line.trim() };
  const country = match[1]!.toUpperCase();
  return match[2] ? { country, region: match[2].toUpperCase() } : { country };
}

/** A settings list of places as people read it: 'United States', 'California (United States)', 'everywhere else'. */
export function placesReadOut(text: string): string {
  return lines(text)
    .map((line) => line.replace(/,[^,]*$/, '')) // a tax line's rate
    .map((line) => {
      if (line.trim() === '*') return 'everywhere else';
      const p = placeOf(line);
      return p.region ? `${regionName(p.country, p.region)} (${countryName(p.country)})` : countryName(p.country);
    })
    .join('; ');
}
const percent = (bp: number) => String(Number((bp / 100).toFixed(2)));

export function toDraft(s: FulfilmentSettings): Draft {
  return {
    pickup: { enabled: s.pickup.enabled, address: s.pickup.address, hours: s.pickup.hours, holdDays: String(s.pickup.holdDays) },
    local: { enabled: s.local.enabled, price: formatCents(s.local.priceCents), country: s.local.country, zipcodes: s.local.zipcodes.join('\n') },
    post: {
      enabled: s.post.enabled,
      freeFrom: s.post.freeFromCents === null ? '' : formatCents(s.post.freeFromCents),
      zones: s.post.zones.map((z) => ({ name: z.name, places: z.places.map(placeText).join('\n'), rates: z.rates.map((r) => `${r.upToGrams}, ${formatCents(r.priceCents)}`).join('\n') })),
    },
    defaultWeightGrams: String(s.defaultWeightGrams),
    tax: { mode: s.tax.mode, label: s.tax.label, rate: percent(s.tax.rateBp), regions: s.tax.regions.map((r) => `${placeText(r)}, ${percent(r.rateBp)}`).join('\n') },
  };
}

/** Text to a number; what cannot be read stays as text, for the schema to refuse with its message. */
const num = (text: string): unknown => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);
const money = (text: string): unknown => {
  const n = Number(text.replace(/^\$/, ''));
  return text.trim() !== '' && Number.isFinite(n) ? (toCents(n) ?? text) : text;
};
const bp = (text: string): unknown => {
  const n = Number(text.replace(/%$/, ''));
  return text.trim() !== '' && Number.isFinite(n) ? Math.round(n * 100) : text;
};

/** The draft as the API takes it (validated by the contract's schema before sending, and by the server). */
export function fromDraft(d: Draft): unknown {
  return {
    pickup: { enabled: d.pickup.enabled, address: d.pickup.address, hours: d.pickup.hours, holdDays: num(d.pickup.holdDays) },
    local: { enabled: d.local.enabled, priceCents: money(d.local.price), country: d.local.country, zipcodes: lines(d.local.zipcodes.replace(/,/g, '\n')) },
    post: {
      enabled: d.post.enabled,
      freeFromCents: d.post.freeFrom.trim() === '' ? null : money(d.post.freeFrom),
      zones: d.post.zones.map((z) => ({
        name: z.name,
        places: lines(z.places).map(placeOf),
        rates: lines(z.rates).map((line) => {
          const [grams = '', price = ''] = line.split(/[,:]/).map((p) => p.trim());
          return { upToGrams: num(grams.replace(/\s*g$/i, '')), priceCents: money(price) };
        }),
      })),
    },
    defaultWeightGrams: num(d.defaultWeightGrams),
    tax: {
      mode: d.tax.mode,
      label: d.tax.label,
      rateBp: bp(d.tax.rate),
      regions: lines(d.tax.regions).map((line) => {
        const at = line.lastIndexOf(',');
        return { ...placeOf(at < 0 ? line : line.slice(0, at)), rateBp: bp(at < 0 ? '' : line.slice(at + 1).trim()) };
      }),
    },
  };
}

const DOLLARS = /^\$?\d{1,7}(\.\d{1,2})?$/;

/** Amounts typed in dollars that are not amounts: named here, in the form's words, before the schema's cents. */
export function dollarProblems(d: Draft): string[] {
  const problems: string[] = [];
  const check = (label: string, text: string, optional = false) => {
    if (optional && text.trim() === '') return;
    if (!DOLLARS.test(text.trim())) problems.push(`${label}: enter an amount in dollars, such as 4.99`);
  };
  check('Local delivery price', d.local.price);
  check('Free shipping from', d.post.freeFrom, true);
  return problems;
}
