import { allCountries } from '@bookstore/contract';
import type { ReactNode } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { PlacePicker } from './place-picker';
import { placesReadOut, type Draft } from './settings-draft';

// The Shop Settings form's sections (issue 27): pickup, local delivery, post with its zones, and
// weights and tax. Each edits its part of the draft (settings-draft.ts); the page saves it whole.

const input = 'mt-1 w-full rounded-md border border-gray-300 px-3 py-2 focus:outline-2 focus:outline-accent';
/** One more line in a list field. */
const addLine = (text: string, line: string) => (text.trim() ? `${text.replace(/\s+$/, '')}\n${line}` : line);
const box = 'space-y-3 rounded-lg bg-white p-4 shadow sm:p-6';

export type SetPart = <K extends keyof Draft>(key: K, value: Partial<Draft[K]>) => void;
interface SectionProps {
  draft: Draft;
  set: SetPart;
}

function Field({ id, label, help, children }: { id: string; label: string; help?: string; children: ReactNode }) {
  return (
    // min-w-0: a grid cell may shrink below its widest option (country names are long), never past the phone's edge.
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm font-semibold text-gray-700">{label}</label>
      {children}
      {help && <p id={`${id}-help`} className="mt-1 text-sm text-gray-600">{help}</p>}
    </div>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 font-semibold">
      <input type="checkbox" className="size-4" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** A zone's fields changed: the zones list with that one replaced. */
const setZone = (draft: Draft, set: SetPart, i: number, value: Partial<Draft['post']['zones'][number]>) =>
  set('post', { zones: draft.post.zones.map((z, k) => (k === i ? { ...z, ...value } : z)) });

/** Pickup in the shop: free, paid at the counter, held for a number of days. */
export function PickupSection({ draft, set }: SectionProps) {
  return (
    <fieldset className={box}>
      <legend className="sr-only">Pickup in the shop</legend>
      <Check label="Pickup in the shop (free, paid at the counter)" checked={draft.pickup.enabled} onChange={(enabled) => set('pickup', { enabled })} />
      <Field id="pickup-address" label="Shop address">
        <textarea id="pickup-address" rows={2} className={input} value={draft.pickup.address} onChange={(e) => set('pickup', { address: e.target.value })} />
      </Field>
      <Field id="pickup-hours" label="Opening hours">
        <textarea id="pickup-hours" rows={2} className={input} value={draft.pickup.hours} onChange={(e) => set('pickup', { hours: e.target.value })} />
      </Field>
      <Field id="pickup-days" label="Hold days" help="An order not collected this many days after it is ready is cancelled and restocked.">
        <input id="pickup-days" type="number" min={1} max={60} className={input} aria-describedby="pickup-days-help" value={draft.pickup.holdDays} onChange={(e) => set('pickup', { holdDays: e.target.value })} />
      </Field>
    </fieldset>
  );
}

/** Local delivery: a price, a country and the zipcodes it reaches. */
export function LocalSection({ draft, set }: SectionProps) {
  return (
    <fieldset className={box}>
      <legend className="sr-only">Local delivery</legend>
      <Check label="Local delivery (cash on delivery)" checked={draft.local.enabled} onChange={(enabled) => set('local', { enabled })} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="local-price" label="Price ($)">
          <input id="local-price" inputMode="decimal" className={input} value={draft.local.price} onChange={(e) => set('local', { price: e.target.value })} />
        </Field>
        <Field id="local-country" label="Country">
          <select id="local-country" className={input} value={draft.local.country} onChange={(e) => set('local', { country: e.target.value })}>
            <option value="">Any country</option>
            {allCountries().map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
          </select>
        </Field>
      </div>
      <Field id="local-zips" label="Zipcodes" help="One a line (or commas); 627* is every zipcode starting 627. Empty: everywhere in the country.">
        <textarea id="local-zips" rows={2} className={input} aria-describedby="local-zips-help" value={draft.local.zipcodes} onChange={(e) => set('local', { zipcodes: e.target.value })} />
      </Field>
    </fieldset>
  );
}

/** Post: free from an amount, and a rate table per zone of places. */
export function PostSection({ draft, set }: SectionProps) {
  return (
    <fieldset className={box}>
      <legend className="sr-only">Post</legend>
      <Check label="Post (cash on delivery)" checked={draft.post.enabled} onChange={(enabled) => set('post', { enabled })} />
      <Field id="post-free" label="Free shipping from ($)" help="Post is free when the books come to this much. Empty: never free.">
        <input id="post-free" inputMode="decimal" className={input} aria-describedby="post-free-help" value={draft.post.freeFrom} onChange={(e) => set('post', { freeFrom: e.target.value })} />
      </Field>
      {draft.post.zones.map((zone, i) => (
        <fieldset key={i} className="space-y-3 rounded-md border border-gray-200 p-3">
          <legend className="px-1 font-semibold">Zone {i + 1}: {zone.name || 'unnamed'}</legend>
          <Field id={`zone-${i}-name`} label="Zone name">
            <input id={`zone-${i}-name`} className={input} value={zone.name} onChange={(e) => setZone(draft, set, i, { name: e.target.value })} />
          </Field>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id={`zone-${i}-places`} label="Countries" help="Codes, one a line: US, US-CA (a state), * for everywhere else. Add them from the list below.">
              <textarea id={`zone-${i}-places`} rows={3} className={input} aria-describedby={`zone-${i}-places-help zone-${i}-places-read`} value={zone.places} onChange={(e) => setZone(draft, set, i, { places: e.target.value })} />
              <p id={`zone-${i}-places-read`} className="mt-1 text-sm text-gray-700" data-testid={`zone-${i}-places-read`}>{placesReadOut(zone.places)}</p>
              <PlacePicker id={`zone-${i}-pick`} label={`Add a place to zone ${i + 1}`} onAdd={(line) => setZone(draft, set, i, { places: addLine(zone.places, line) })} />
            </Field>
            <Field id={`zone-${i}-rates`} label="Rates" help="One band a line: up to grams, price. e.g. 1000, 5.99">
              <textarea id={`zone-${i}-rates`} rows={3} className={input} aria-describedby={`zone-${i}-rates-help`} value={zone.rates} onChange={(e) => setZone(draft, set, i, { rates: e.target.value })} />
            </Field>
          </div>
          <button type="button" className="text-sm font-semibold text-danger underline" onClick={() => set('post', { zones: draft.post.zones.filter((_, k) => k !== i) })}>
            Remove zone {i + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" className={buttonClass('secondary', 'sm')} onClick={() => set('post', { zones: [...draft.post.zones, { name: '', places: '', rates: '' }] })}>
        Add a zone
      </button>
    </fieldset>
  );
}

/** The default book weight, and tax: included in prices or added by region. */
export function TaxSection({ draft, set, setDraft }: SectionProps & { setDraft: (f: (d: Draft) => Draft) => void }) {
  return (
    <fieldset className={box}>
      <legend className="sr-only">Weights and tax</legend>
      <Field id="default-weight" label="Default book weight (grams)" help="For books without a weight of their own.">
        <input id="default-weight" type="number" min={1} className={input} aria-describedby="default-weight-help" value={draft.defaultWeightGrams} onChange={(e) => setDraft((d) => ({ ...d, defaultWeightGrams: e.target.value }))} />
      </Field>
      <div role="radiogroup" aria-label="Tax" className="flex flex-wrap gap-4">
        {(['included', 'added'] as const).map((mode) => (
          <label key={mode} className="flex items-center gap-2">
            <input type="radio" name="tax-mode" className="size-4" checked={draft.tax.mode === mode} onChange={() => set('tax', { mode })} />
            {mode === 'included' ? 'Prices include tax (VAT)' : 'Tax is added at checkout'}
          </label>
        ))}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="tax-label" label="Tax name">
          <input id="tax-label" className={input} value={draft.tax.label} onChange={(e) => set('tax', { label: e.target.value })} />
        </Field>
        <Field id="tax-rate" label="Rate (%)" help={draft.tax.mode === 'added' ? 'For pickup and places not listed below.' : undefined}>
          <input id="tax-rate" inputMode="decimal" className={input} value={draft.tax.rate} onChange={(e) => set('tax', { rate: e.target.value })} />
        </Field>
      </div>
      {draft.tax.mode === 'added' && (
        <Field id="tax-regions" label="Rates by region" help="One a line: 'US, 6' or 'US-CA, 8.25' (codes, then the rate in %).">
          <textarea id="tax-regions" rows={3} className={input} aria-describedby="tax-regions-help tax-regions-read" value={draft.tax.regions} onChange={(e) => set('tax', { regions: e.target.value })} />
          <p id="tax-regions-read" className="mt-1 text-sm text-gray-700">{placesReadOut(draft.tax.regions)}</p>
          <PlacePicker id="tax-pick" label="Add a region's rate" onAdd={(line) => set('tax', { regions: addLine(draft.tax.regions, `${line}, `) })} />
        </Field>
      )}
    </fieldset>
  );
}
