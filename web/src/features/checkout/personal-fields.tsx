const PERSON = [
  { name: 'name', label: 'Full Name', type: 'text', autoComplete: 'name', span: 'md:col-span-5' },
  { name: 'phone', label: 'Phone Number', type: 'number', autoComplete: 'tel', span: 'md:col-span-5', placeholder: '+123 456 7890' },
] as const;

const INPUT = 'mt-1 h-10 w-full rounded-md border border-gray-300 bg-gray-50 px-4 focus:bg-white focus:outline-2 focus:outline-accent';

/** Who the order is for: the signed-in account's email (not editable here), the name and phone typed. */
export function PersonalFields({ email }: { email: string }) {
  return (
    <>
      <div className="md:col-span-5">
        <label htmlFor="email">Email Address</label>
        <input id="email" name="email" type="email" readOnly value={email} className="mt-1 h-10 w-full rounded border border-gray-300 bg-gray-100 px-4" />
      </div>
      {PERSON.map((f) => (
        <div key={f.name} className={f.span}>
          <label htmlFor={f.name}>{f.label}</label>
          <input id={f.name} name={f.name} type={f.type} required autoComplete={f.autoComplete} placeholder={'placeholder' in f ? f.placeholder : ''} className={INPUT} />
        </div>
      ))}
    </>
  );
}
