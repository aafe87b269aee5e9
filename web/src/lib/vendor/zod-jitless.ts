import { config } from 'zod/v4';

// The storefront's CSP has no 'unsafe-eval'. Zod compiles its object parsers with `new Function`
// when it may, and finds out by trying it in a try/catch, which the browser still reports as a CSP
// violation (DevTools' Issues, Lighthouse's Best Practices). Jitless, it never tries. vite.config.ts
// aliases 'zod' here for the web build, so this runs before any schema is made.
config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
