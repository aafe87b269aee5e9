import { countryName, hasPostcodes, hasRegions, postcodeExample, postcodeWord, regionsOf } from '@bookstore/contract';
import { useState, type ReactNode } from 'react';
import { addressProblems, countryChoices, type AddressDraft, type AddressField } from './address-draft';

// The checkout's address (issue 36): street and city typed; the country chosen from the shop's
// countries, the state or province from the country's list where it has one (free text, optional,
// elsewhere); the zipcode checked against the country's format as soon as the shopper leaves it.
// A field's problem is shown under it and blocks the form (setCustomValidity), in the server's words.

const INPUT = 'mt-1 h-10 w-full rounded-md border border-gray-300 bg-gray-50 px-4 focus:bg-white focus:outline-2 focus:outline-accent aria-[invalid=true]:border-danger';

interface Props {
  value: AddressDraft;
  onChange: (next: AddressDraft) => void;
  /** The shop's countries (codes) and whether it reaches every other (the quote's `countries`, `everyCountry`); undefined until known. */
  shop: { countries: string[]; everyCountry: boolean } | undefined;
  /** Hidden and disabled for a pickup: not required, not sent; what was typed stays for a change of mind. */
  hidden: boolean;
}

export function AddressFields({ value, onChange, shop, hidden }: Props) {
  const [touched, setTouched] = useState<Partial<Record<AddressField, boolean>>>({});
  const problems = addressProblems(value);
  const set = (field: AddressField, text: string) => {
    const next = { ...value, [field]: text };
    // Another country: its regions and postcodes differ, so what was chosen for the last one goes.
    if (field === 'country') Object.assign(next, { state: hasRegions(text) || hasRegions(value.country) ? '' : value.state, zipcode: '' });
    onChange(next);
  };
  const touch = (field: AddressField) => setTouched((t) => ({ ...t, [field]: true }));
  const shown = (field: AddressField) => (touched[field] && value[field].trim() ? problems[field] : undefined);
  // Until the shop's list arrives (or offline), every country: the form can be filled meanwhile.
  const { ours, others } = countryChoices(shop?.countries ?? [], shop ? shop.everyCountry : true);
  // A country from an earlier order that the shop no longer names is still shown (its quote says why not).
  const listed = [...ours, ...others].some((c) => c.code === value.country);
  const regions = regionsOf(value.country);
  const postcodes = !value.country || hasPostcodes(value.country);
  const word = postcodeWord(value.country || undefined);

  return (
    <>
      <Field id="street" label="Address / Street" span="md:col-span-3" hidden={hidden} problem={problems.street} show={shown('street')}>
        {(props) => <input {...props} type="text" autoComplete="street-address" value={value.street} onChange={(e) => set('street', e.target.value)} onBlur={() => touch('street')} />}
      </Field>
      <Field id="city" label="City" span="md:col-span-2" hidden={hidden}>
        {(props) => <input {...props} type="text" autoComplete="address-level2" value={value.city} onChange={(e) => set('city', e.target.value)} />}
      </Field>
      <Field id="country" label="Country / region" span="md:col-span-2" hidden={hidden} problem={problems.country} show={problems.country}>
        {(props) => (
          <select {...props} autoComplete="country" value={value.country} onChange={(e) => set('country', e.target.value)}>
            <option value="">Choose your country</option>
            {!listed && value.country && <option value={value.country}>{countryName(value.country)}</option>}
            {others.length > 0 && ours.length > 0 ? (
              <>
                <optgroup label="Where we deliver most">{ours.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}</optgroup>
                <optgroup label="Every other country">{others.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}</optgroup>
              </>
            ) : (
              [...ours, ...others].map((c) => <option key={c.code} value={c.code}>{c.name}</option>)
            )}
          </select>
        )}
      </Field>
      {regions.length > 0 ? (
        <Field id="state" label="State / province" span="md:col-span-2" hidden={hidden} problem={problems.state} show={problems.state}>
          {(props) => (
            <select {...props} autoComplete="address-level1" value={value.state} onChange={(e) => set('state', e.target.value)}>
              <option value="">{value.country === 'US' ? 'Choose your state' : 'Choose your province'}</option>
              {regions.map((r) => <option key={r.code} value={r.code}>{r.name}</option>)}
            </select>
          )}
        </Field>
      ) : (
        <Field id="state" label="State / province (optional)" span="md:col-span-2" hidden={hidden} optional>
          {(props) => <input {...props} type="text" autoComplete="address-level1" value={value.state} onChange={(e) => set('state', e.target.value)} />}
        </Field>
      )}
      <Field id="zipcode" label="Zipcode" span="md:col-span-1" hidden={hidden || !postcodes} problem={problems.zipcode} show={shown('zipcode')}>
        {(props) => (
          <input
            {...props}
            type="text"
            autoComplete="postal-code"
            placeholder={value.country && postcodes ? postcodeExample(value.country) : ''}
            title={value.country ? `Your ${word} in ${countryName(value.country)}` : undefined}
            value={value.zipcode}
            onChange={(e) => set('zipcode', e.target.value)}
            onBlur={() => touch('zipcode')}
          />
        )}
      </Field>
    </>
  );
}

interface FieldProps {
  id: AddressField;
  label: string;
  span: string;
  hidden: boolean;
  optional?: boolean;
  /** What is wrong (blocks the form), and whether to show it yet (once the shopper left the field, or chose). */
  problem?: string;
  show?: string;
  children: (props: { id: string; name: string; required: boolean; disabled: boolean; className: string; 'aria-invalid': boolean; 'aria-describedby'?: string; ref: (el: HTMLInputElement | HTMLSelectElement | null) => void }) => ReactNode;
}

function Field({ id, label, span, hidden, optional, problem, show, children }: FieldProps) {
  const note = `${id}-problem`;
  return (
    <div className={span} hidden={hidden}>
      <label htmlFor={id}>{label}</label>
      {children({
        id, name: id, required: !optional, disabled: hidden, className: INPUT, 'aria-invalid': !!show,
        ...(show ? { 'aria-describedby': note } : {}),
        // The browser's own check then stops the order at this field, with the same words.
        ref: (node) => node?.setCustomValidity(problem ?? ''),
      })}
      {show && <p id={note} className="mt-1 text-danger">{show}</p>}
    </div>
  );
}
