import type { InputHTMLAttributes } from 'react';
import { SearchIcon } from './icons';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type' | 'className'>;

/**
 * A list's search box: its label (above the box, or for screen readers only with `labelHidden`),
 * the magnifier and a type=search input. `inputClassName` adds the page's colours; every other
 * prop goes to the input.
 */
export function SearchField({ id, label, labelHidden = false, className = '', inputClassName = '', ...input }: InputProps & {
  id: string;
  label: string;
  labelHidden?: boolean;
  className?: string;
  inputClassName?: string;
}) {
  return (
    <div className={`relative ${className}`}>
      <label htmlFor={id} className={labelHidden ? 'sr-only' : 'mb-1 block text-xs font-semibold text-gray-600'}>{label}</label>
      {/* Pinned to the input's bottom edge, so it stays centred on the box whether the label shows or not. */}
      <SearchIcon className="pointer-events-none absolute bottom-2.5 left-3 size-4 text-gray-500" />
      <input {...input} id={id} type="search" className={`w-full rounded-md border border-gray-300 py-2 pl-9 pr-3 text-sm focus:outline-2 ${inputClassName}`} />
    </div>
  );
}
