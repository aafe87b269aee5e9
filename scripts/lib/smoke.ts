// `npm run smoke -- <url>`: what a shopper's first visit needs from a deployed site, over plain HTTP.
// Each check passes, fails (with what was seen) or is skipped with the reason.

export interface SmokeResult {
  name: string;
  status: 'pass' | 'fail' | 'skip';
  detail: string;
}


/** Strings only an emulator build or policy carries. */
const EMULATOR_HOSTS = /127\.0\.0\.1|localhost|\[::1\]/;
const SECURITY_HEADERS: [string, RegExp][] = [
  ['x-content-type-options', /^nosniff$/i],
  ['referrer-policy', /./],
  ['permissions-policy', /./],
  ['content-security-policy', /./],
];

/** The sources a CSP directive allows (falling back to default-src, as browsers do). */
export function cspSources(csp: string, directive: string): string[] | null {
  const parts = new Map(
    csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map((d) => [d[0]!.toLowerCase(), d.slice(1)] as const),
  );
  return parts.get(directive) ?? parts.get('default-src') ?? null;
}

function allows(sources: string[] | null, origin: string): boolean {
  if (!sources) return true; // no directive, no default-src: not restricted
  const host = new URL(origin).host;
  return sources.some((s) => {
    if (s === '*' || s === origin || s === `${origin}/`) return true;
    const wildcard = /^https:\/\/\*\.(.+)$/.exec(s);
    return wildcard ? host.endsWith(`.${wildcard[1]}`) : false;
  });
}

function cacheControl(res: Response): string {
  return res.headers.get('cache-control') ?? '(none)';
}

/** Prints each result (`indent` before it) and returns how many passed, failed and were skipped. */
export function printSmoke(results: SmokeResult[], indent = ''): Record<'passed' | 'failed' | 'skipped', number> {
  const label = { pass: 'ok  ', fail: 'FAIL', skip: 'skip' } as const;
  for (const r of results) console.log(`${indent}${label[r.status]} ${r.name}: ${r.detail}`);
  const count = (status: SmokeResult['status']) => results.filter((r) => r.status === status).length;
  return { passed: count('pass'), failed: count('fail'), skipped: count('skip') };
}

/**
 * `emulatorCspSources`: sources the policy may carry because the site is the Hosting emulator (its
 * generated config adds the Auth emulator, scripts/lib/emulator-config.ts); empty for a real site.
 */
export async function runSmoke(base: string, emulatorCspSources: string[] = []): Promise<SmokeResult[]> {
  const url = (path: string) => new URL(path, base).toString();
  const get = (path: string) => fetch(url(path), { redirect: 'manual', headers: { 'Accept-Encoding': 'identity' } });
  const results: SmokeResult[] = [];
  const check = (name: string, ok: boolean, detail: string) => results.push({ name, status: ok ? 'pass' : 'fail', detail });
  const skip = (name: string, detail: string) => results.push({ name, status: 'skip', detail });

  // 1. The page itself: HTML, never kept by a cache without asking (a redeploy must reach every tab).
  const home = await get('/');
  const html = await home.text();
  check('index.html is served and not cached', home.status === 200 && /text\/html/.test(home.headers.get('content-type') ?? '') && /no-cache|no-store|max-age=0/.test(cacheControl(home)),
    `GET / -> ${home.status}, ${home.headers.get('content-type')}, Cache-Control: ${cacheControl(home)}`);
  const deep = await get('/cart');
  check('a deep link gets the app, not cached', deep.status === 200 && /no-cache|no-store|max-age=0/.test(cacheControl(deep)), `GET /cart -> ${deep.status}, Cache-Control: ${cacheControl(deep)}`);

  // 2. Hashed assets: cached for a year, immutable; the entry script is a production build.
  // The entry is the page's module script.
  const entry = /<script[^>]+(?:data-entry|src)="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (!entry) {
    check('assets are immutable', false, 'no /assets/*.js script in index.html');
  } else {
    const asset = await get(entry);
    const js = await asset.text();
    check('assets are immutable', asset.status === 200 && /javascript/.test(asset.headers.get('content-type') ?? '') && /immutable/.test(cacheControl(asset)) && /max-age=31536000/.test(cacheControl(asset)),
      `GET ${entry} -> ${asset.status}, ${asset.headers.get('content-type')}, Cache-Control: ${cacheControl(asset)}`);
    const emulator = /127\.0\.0\.1:9099|localhost:9099|demo-api-key/.exec(js);
    check('the app is a production build (no emulator settings)', !emulator, emulator ? `${entry} contains "${emulator[0]}"` : `${entry} carries no emulator URL or demo key`);
  }

  // 3. A missing asset (an old tab after a redeploy) is a 404, never index.html under a script's URL.
  const missing = await get(`/assets/smoke-missing-${Date.now()}.js`);
  const missingType = missing.headers.get('content-type') ?? '';
  check('a missing asset is 404, not HTML', missing.status === 404 && !/text\/html/.test(missingType),
    `GET /assets/smoke-missing-*.js -> ${missing.status}, ${missingType || '(no type)'}, Cache-Control: ${cacheControl(missing)}`);
  // Hosting applies its header rules by path, to a function's 404 too: the deploy narrows the
  // immutable /assets/ rule to the files it ships (scripts/lib/asset-headers.ts), so this 404 keeps
  // the function's no-store. Cached, it would outlive a rollback that brings the name back.
  check('a missing asset is not cached', /no-store/.test(cacheControl(missing)) && !/immutable|max-age=[1-9]/.test(cacheControl(missing)), `Cache-Control: ${cacheControl(missing)}`);

  // 4. The function behind /api/**.
  const health = await get('/api/health');
  const healthBody = await health.text();
  check('/api/health answers', health.status === 200 && /"ok":\s*true/.test(healthBody), `GET /api/health -> ${health.status} ${healthBody.slice(0, 80)}`);

  // 5. Security headers on the page.
  const absent = SECURITY_HEADERS.filter(([name, value]) => !value.test(home.headers.get(name) ?? ''));
  const csp = home.headers.get('content-security-policy') ?? '';
  const framing = /deny|sameorigin/i.test(home.headers.get('x-frame-options') ?? '') || /frame-ancestors/.test(csp);
  check('security headers', absent.length === 0 && framing,
    absent.length || !framing ? `missing or wrong: ${[...absent.map(([n]) => n), ...(framing ? [] : ['x-frame-options / frame-ancestors'])].join(', ')}` : SECURITY_HEADERS.map(([n]) => n).join(', ') + ', framing refused');

  // 6. The policy lets Firebase Auth work: its APIs, Google's sign-in script, the auth helper frame.
  if (!csp) {
    skip('CSP allows Firebase Auth', 'no Content-Security-Policy header');
  } else {
    const needs: [string, string][] = [
      ['connect-src', 'https://identitytoolkit.googleapis.com'],
      ['connect-src', 'https://securetoken.googleapis.com'],
      ['script-src', 'https://apis.google.com'], // signInWithPopup loads gapi from here
      ['frame-src', 'https://example.firebaseapp.com'], // the auth helper iframe on <project>.firebaseapp.com
    ];
    const blocked = needs.filter(([d, origin]) => !allows(cspSources(csp, d), origin) && !(d === 'frame-src' && cspSources(csp, d)?.includes("'self'")));
    check('CSP allows Firebase Auth', blocked.length === 0, blocked.length ? `blocked: ${blocked.map(([d, o]) => `${d} ${o.replace('example', '<project>')}`).join(', ')}` : 'identitytoolkit, securetoken, apis.google.com scripts, the auth frame');
    const emulatorInCsp = csp.split(/[\s;]+/).filter((s) => EMULATOR_HOSTS.test(s) && !emulatorCspSources.includes(s));
    check('CSP names no emulator', emulatorInCsp.length === 0, emulatorInCsp.length ? `production policy allows ${emulatorInCsp.join(' ')}` : 'no 127.0.0.1 / localhost sources');
  }

  // 7. Firebase Auth's helper pages (served by Hosting under /__/auth/) must be frameable by the shop.
  const helper = await get('/__/auth/iframe');
  if (helper.status !== 200 || !/text\/html/.test(helper.headers.get('content-type') ?? '') || !/firebase|gapi|auth/i.test(await helper.text())) {
    skip('Auth helper page can be framed', `/__/auth/iframe is not served here (${helper.status === 200 ? 'the app shell answered' : helper.status}); Firebase Hosting serves it on a deployed site`);
  } else {
    const xfo = helper.headers.get('x-frame-options') ?? '';
    const ancestors = cspSources(helper.headers.get('content-security-policy') ?? '', 'frame-ancestors');
    const refused = /deny/i.test(xfo) || (ancestors?.includes("'none'") ?? false);
    check('Auth helper page can be framed', !refused, refused ? `/__/auth/iframe answers X-Frame-Options: ${xfo || '-'}, frame-ancestors: ${ancestors?.join(' ') ?? '-'}` : 'frameable by the shop');
  }

  // 8. A book page's meta tags, once book pages are filled in on the server.
  const books = await get('/api/books?limit=1');
  const first = books.status === 200 ? ((await books.json()) as { _id: string }[])[0] : undefined;
  if (!first) {
    skip('book page meta', 'no book to open (empty catalogue or /api/books failed)');
  } else {
    const page = await (await get(`/books/${first._id}`)).text();
    if (!/property="og:title"/.test(page)) skip('book page meta', `/books/${first._id} is the plain app shell (no server-filled og:title yet)`);
    else check('book page meta', /<title>[^<]+<\/title>/.test(page) && /og:title" content="[^"]+"/.test(page), `/books/${first._id} has og:title`);
  }

  // 9. /books carries its first page of books (the function's server render, with its query state).
  const browseAnswer = await get('/api/books?sort=newest&limit=1');
  const newest = browseAnswer.status === 200 ? ((await browseAnswer.json()) as { books?: { _id: string }[] }).books?.[0]?._id : undefined;
  if (!newest) skip('browse page filled', 'no browse answer to compare with (GET /api/books?sort=newest)');
  else {
    const browse = await (await get('/books')).text();
    check('browse page filled', browse.includes('id="query-state"') && browse.includes(`href="/books/${newest}"`), `/books carries the first page of books, the newest (${newest}) first`);
  }
  return results;
}
