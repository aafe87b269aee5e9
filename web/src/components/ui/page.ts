// One page frame for the storefront (issue 29): every page's content starts at the layout's left
// edge (the header's logo), at every width; only the sign-in and register forms are centred.

/** A storefront page's outer section: vertical rhythm only, no width of its own. */
export const pageClass = 'py-6 md:py-10';

/** A page's h1. Section headings (h2) use `sectionTitle`. */
export const pageTitle = 'text-2xl font-bold md:text-3xl';

export const sectionTitle = 'text-xl font-bold';
