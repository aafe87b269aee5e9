// Stands in for `re2js` in the web build (vite.config.ts). The Firestore SDK imports it only to
// evaluate the regex and LIKE functions of Pipeline queries on the client, which the shop never
// builds (it listens to a book's stock, and to a shopper's orders). The real package, 150 KB of
// Unicode tables and an engine, rode along in the live-stock chunk every book page and the cart
// load, parsed and run on a phone's main thread for nothing. A call is caught by the SDK, which
// answers an error value for that expression, as it does for a bad pattern.
function unused(): never {
  throw new Error('RE2 regular expressions are not part of this shop (web/src/lib/vendor/no-re2js.ts).');
}

export const RE2JS = { compile: unused };
