import { withBodyLimitCheck } from '../lib/body-parse-errors';
import { createPagesApp } from '../pages/pages.app';
import { withRelease } from '../pages/release';

// The `pages` function's code (lib/pages.js): the server-rendered pages, with the web app's React
// components; no other function loads them (index.ts, lib/served.ts).
export default withRelease(withBodyLimitCheck(createPagesApp()));
