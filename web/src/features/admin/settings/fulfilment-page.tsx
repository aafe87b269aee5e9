import { buttonClass } from '../../../components/ui/button';
import { allCountries, FulfilmentSettingsSchema, type FulfilmentSettings } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/notify';
import { useOnline } from '../../../lib/use-online';
import { usePageTitle } from '../../../lib/use-page-title';
import { fulfilmentQuery, useSaveFulfilment } from '../api/fulfilment-api';
import { CounterAllowance } from './counter-allowance';
import { PlacePicker } from './place-picker';
import { dollarProblems, fromDraft, placesReadOut, toDraft, type Draft } from './settings-draft';

// Shop settings (issue 27, owner and manager): pickup, local delivery, post with its rate table,
// and tax. Saved whole, with one audit event; the checkout prices with them at once. Places are the
// checkout's codes (issue 36), chosen from its lists.

const input = 'mt-1 w-full rounded-md border border-gray-300 px-3 py-2 focus:outline-2 focus:outline-accent';
/** One more line in a list field. */
const addLine = (text: string, line: string) => (text.trim() ? `${text.replace(/\s+$/, '')}\n${line}` : line);
const box = 'space-y-3 rounded-lg bg-white p-4 shadow sm:p-6';

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

export function Component() {
  usePageTitle('Shop settings');
  const settings = useQuery(fulfilmentQuery());
  if (!settings.data) return settings.isError ? <p role="alert" className="text-danger">Could not load the settings.</p> : <FullScreenSpinner />;
  return (
    <div className="space-y-6">
      <SettingsForm initial={settings.data} />
      <CounterAllowance />
    </div>
  );
}

function SettingsForm({ initial }: { initial: FulfilmentSettings }) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial));
  const [problems, setProblems] = useState<string[]>([]);
  const save = useSaveFulfilment();
  const online = useOnline();
  const set = <K extends keyof Draft>(key: K, value: Partial<Draft[K]>) => setDraft((d) => ({ ...d, [key]: { ...(d[key] as object), ...value } }));
  const setZone = (i: number, value: Partial<Draft['post']['zones'][number]>) =>
    set('post', { zones: draft.post.zones.map((z, k) => (k === i ? { ...z, ...value } : z)) });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = dollarProblems(draft);
    if (typed.length > 0) {
      setProblems(typed);
      return;
    }
    const parsed = FulfilmentSettingsSchema.safeParse(fromDraft(draft));
    if (!parsed.success) {
      // The schema's messages name the field; a zone's also says which zone.
      setProblems(parsed.error.issues.map((i) => (i.path[1] === 'zones' && typeof i.path[2] === 'number' ? `Zone ${i.path[2] + 1}: ${i.message}` : i.message)));
      return;
    }
    setProblems([]);
    try {
      const saved = await save.mutateAsync(parsed.data as FulfilmentSettings);
      setDraft(toDraft(saved.settings));
      void toast('Settings saved', { timer: 2000 });
    } catch (error) {
      const details = error instanceof ApiError ? Object.entries(error.body?.details ?? {}).map(([k, v]) => `${k}: ${v.join(', ')}`) : [];
      setProblems([error instanceof Error ? error.message : 'Could not save the settings', ...details]);
    }
  };

  const check = (label: string, checked: boolean, onChange: (v: boolean) => void) => (
    <label className="flex items-center gap-2 font-semibold">
      <input type="checkbox" className="size-4" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );

  return (
    <form onSubmit={submit} className="max-w-3xl space-y-6" aria-labelledby="settings-heading" noValidate>
      <h2 id="settings-heading" className="text-2xl font-semibold">Shop Settings</h2>
      <p className="text-gray-700">How customers get their books, what it costs and the tax on it. Money in dollars.</p>

      <fieldset className={box}>
        <legend className="sr-only">Pickup in the shop</legend>
        {check('Pickup in the shop (free, paid at the counter)', draft.pickup.enabled, (enabled) => set('pickup', { enabled }))}
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

      <fieldset className={box}>
        <legend className="sr-only">Local delivery</legend>
        {check('Local delivery (cash on delivery)', draft.local.enabled, (enabled) => set('local', { enabled }))}
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

      <fieldset className={box}>
        <legend className="sr-only">Post</legend>
        {check('Post (cash on delivery)', draft.post.enabled, (enabled) => set('post', { enabled }))}
        <Field id="post-free" label="Free shipping from ($)" help="Post is free when the books come to this much. Empty: never free.">
          <input id="post-free" inputMode="decimal" className={input} aria-describedby="post-free-help" value={draft.post.freeFrom} onChange={(e) => set('post', { freeFrom: e.target.value })} />
        </Field>
        {draft.post.zones.map((zone, i) => (
          <fieldset key={i} className="space-y-3 rounded-md border border-gray-200 p-3">
            <legend className="px-1 font-semibold">Zone {i + 1}: {zone.name || 'unnamed'}</legend>
            <Field id={`zone-${i}-name`} label="Zone name">
              <input id={`zone-${i}-name`} className={input} value={zone.name} onChange={(e) => setZone(i, { name: e.target.value })} />
            </Field>
            <div className="grid gap-3 sm:grid-cols-2">
              <Field id={`zone-${i}-places`} label="Countries" help="Codes, one a line: US, US-CA (a state), * for everywhere else. Add them from the list below.">
                <textarea id={`zone-${i}-places`} rows={3} className={input} aria-describedby={`zone-${i}-places-help zone-${i}-places-read`} value={zone.places} onChange={(e) => setZone(i, { places: e.target.value })} />
                <p id={`zone-${i}-places-read`} className="mt-1 text-sm text-gray-700" data-testid={`zone-${i}-places-read`}>{placesReadOut(zone.places)}</p>
                <PlacePicker id={`zone-${i}-pick`} label={`Add a place to zone ${i + 1}`} onAdd={(line) => setZone(i, { places: addLine(zone.places, line) })} />
              </Field>
              <Field id={`zone-${i}-rates`} label="Rates" help="One band a line: up to grams, price. e.g. 1000, 5.99">
                <textarea id={`zone-${i}-rates`} rows={3} className={input} aria-describedby={`zone-${i}-rates-help`} value={zone.rates} onChange={(e) => setZone(i, { rates: e.target.value })} />
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

      {problems.length > 0 && (
        <div role="alert" className="rounded-md bg-danger-soft p-3 text-danger ring-1 ring-danger">
          <p className="font-semibold">The settings were not saved:</p>
          <ul className="list-disc pl-5">{problems.map((p) => <li key={p}>{p}</li>)}</ul>
        </div>
      )}
      <button type="submit" disabled={save.isPending || !online} className={buttonClass('primary', 'lg')}>
        {save.isPending ? 'Saving...' : 'Save Settings'}
      </button>
    </form>
  );
}
