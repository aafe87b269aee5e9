import { allCountries, regionsOf } from '@bookstore/contract';
import { useState } from 'react';
import { buttonClass } from '../../../components/ui/button';

// Places in the settings are codes (issue 36): this adds one to a list from the same lists the
// checkout offers, so a zone or a tax rate names exactly what shoppers can choose.

// Full width on a phone: some countries' names are long, and a select is as wide as its longest option.
const select = 'w-full min-w-0 max-w-full rounded-md border border-gray-300 px-2 py-1.5 text-sm focus:outline-2 focus:outline-accent sm:w-auto sm:max-w-xs';

export function PlacePicker({ id, label, onAdd }: { id: string; label: string; onAdd: (line: string) => void }) {
  const [country, setCountry] = useState('');
  const [region, setRegion] = useState('');
  const regions = regionsOf(country);
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={label}>
      <select id={`${id}-country`} aria-label={`${label}: country`} className={select} value={country} onChange={(e) => { setCountry(e.target.value); setRegion(''); }}>
        <option value="">Choose a country</option>
        <option value="*">Everywhere else (*)</option>
        {allCountries().map((c) => <option key={c.code} value={c.code}>{c.name} ({c.code})</option>)}
      </select>
      {regions.length > 0 && (
        <select id={`${id}-region`} aria-label={`${label}: region`} className={select} value={region} onChange={(e) => setRegion(e.target.value)}>
          <option value="">The whole country</option>
          {regions.map((r) => <option key={r.code} value={r.code}>{r.name} ({r.code})</option>)}
        </select>
      )}
      <button type="button" disabled={!country} className={buttonClass('secondary', 'sm')} onClick={() => { onAdd(region ? `${country}-${region}` : country); setCountry(''); setRegion(''); }}>
        Add
      </button>
    </div>
  );
}
