// The shop's one time zone and locale (locale.ts says why there is one). Their own module: the
// storefront's first load needs them (pre-orders, publication dates) without the rest of locale.ts,
// which a bundle would otherwise carry whole into its entry chunk.
export const SHOP_TIME_ZONE = 'UTC';
export const SHOP_LOCALE = 'en-US';
