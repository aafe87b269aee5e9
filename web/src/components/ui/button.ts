// The shop's buttons (issue 29): three variants, the same for <button> and for a link that looks
// like one, storefront and dashboard alike. Only class strings (no component), so a server-rendered
// page and the home page's first load carry no extra JavaScript for them.
//
//   primary    the one thing to do here (Add to Cart, Place an Order, Add Book): yellow, navy text
//   secondary  everything else that is a button (Clear Cart, Edit, Previous, Export): white, navy outline
//   danger     only a destructive action's confirmation or its one trigger (Delete): red
//
// Casing: buttons and headings are written in Title Case in the source (the spec's 'Add to Cart',
// 'Place an Order', 'Clear Cart'), never transformed by CSS, so what a screen reader or a test reads
// is what the eye reads. Quiet text actions ('Remove', 'Cancel Order' in a list) use `textLink`.

export type ButtonVariant = 'primary' | 'secondary' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

const BASE =
  'inline-flex items-center justify-center gap-2 rounded-md border font-semibold ' +
  'disabled:cursor-not-allowed disabled:border-gray-200 disabled:bg-gray-200 disabled:text-gray-600';

const VARIANT: Record<ButtonVariant, string> = {
  primary: 'border-primary bg-primary text-secondary hover:border-secondary hover:bg-secondary hover:text-white',
  secondary: 'border-secondary bg-white text-secondary hover:bg-secondary-soft',
  danger: 'border-danger bg-danger text-white hover:border-secondary hover:bg-secondary',
};

const SIZE: Record<ButtonSize, string> = {
  sm: 'px-3 py-1 text-sm',
  md: 'px-5 py-2 text-sm',
  lg: 'px-6 py-3 text-base',
};

/** The classes of a button (or a link styled as one); `extra` adds layout (width, margins). */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra = ''): string {
  return `${BASE} ${VARIANT[variant]} ${SIZE[size]}${extra ? ` ${extra}` : ''}`;
}

/** A button's place when its action is not available here (a pager's Previous on page 1): the disabled look. */
export function unavailableButtonClass(size: ButtonSize = 'sm'): string {
  return `${BASE} border-gray-200 bg-gray-200 text-gray-600 ${SIZE[size]}`;
}

/** An action or link that reads as text: the accent colour, underlined on hover. */
export const textLink = 'font-semibold text-accent underline-offset-2 hover:underline';

/** Form fields: one border, one focus ring. */
export const fieldClass = 'w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm focus:outline-2 focus:outline-accent';
