// What `require('re2')` finds (package.json `overrides`): the native bindings are left out on purpose,
// because building them from C++ source made a first `npm ci` take minutes. superstatic (the Hosting
// emulator's server, re2's only dependant) catches this and matches firebase.json's regexes with
// JavaScript's RegExp; scripts/lib/asset-headers.test.ts and headers.api.test.ts check that those
// regexes mean the same under RE2, as production reads them (docs/decisions/032-no-native-re2.md).
const error = new Error('re2 is not installed here (package.json overrides it with scripts/no-re2): use RegExp');
error.code = 'MODULE_NOT_FOUND';
throw error;
