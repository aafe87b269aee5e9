import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { PORTS } from '../../scripts/lib/env';
import { BASE } from './helpers';

// Two views of the same headers: firebase.json as it will be deployed, and the Hosting emulator
// over HTTP, which serves a generated copy whose CSP adds only the Auth emulator's origin
// (scripts/lib/emulator-config.ts).

const ROOT = new URL('../../', import.meta.url);
const firebaseJson = JSON.parse(readFileSync(new URL('firebase.json', ROOT), 'utf8'));
type Rule = { source?: string; regex?: string; headers: { key: string; value: string }[] };
const rules: Rule[] = firebaseJson.hosting.headers;
const AUTH_EMULATOR = `http://127.0.0.1:${PORTS.auth}`;
const FIRESTORE_EMULATOR = `http://127.0.0.1:${PORTS.firestore}`;

function deployedCsp(): string {
  const values = rules.flatMap((r) => r.headers).filter((h) => h.key === 'Content-Security-Policy').map((h) => h.value);
  expect(values).toHaveLength(1); // one policy, one place
  return values[0]!;
}

function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** What Firebase Auth's browser SDK (the copy our web app bundles) loads and calls. */
function authSdkSource(): string {
  const webRequire = createRequire(new URL('web/package.json', ROOT));
  const firebaseDir = dirname(webRequire.resolve('firebase/package.json'));
  const authRequire = createRequire(join(firebaseDir, 'package.json'));
  const esm = join(dirname(authRequire.resolve('@firebase/auth/package.json')), 'dist', 'esm');
  return readdirSync(esm)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(esm, f), 'utf8'))
    .join('\n');
}

describe('the deployed headers (firebase.json)', () => {
  const csp = directives(deployedCsp());

  it('allow exactly what Firebase Auth Google sign-in needs, and nothing else', () => {
    expect(csp['default-src']).toEqual(["'self'"]);
    // the SDK loads Google's gapi loader for the popup/redirect handshake...
    // ...and the one inline script, the app's start, by its hash (web/src/server/start-script.test.ts)
    // ...and WebAssembly compiled from our own files (the counter's camera barcode reader, issue 57): no JS eval
    expect(csp['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'", 'https://apis.google.com', expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/)]);
    // ...which frames the helper page on the authDomain (<project>.firebaseapp.com, or our own domain)
    expect(csp['frame-src']).toEqual(["'self'", 'https://*.firebaseapp.com']);
    // and calls the Auth REST APIs
    // ...and the live pages (orders, stock) follow Firestore under the security rules
    expect(csp['connect-src']).toEqual(["'self'", 'https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', 'https://firestore.googleapis.com']);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['script-src']!.filter((s) => s !== "'wasm-unsafe-eval'").join(' ')).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('match what the bundled Firebase Auth SDK actually uses', () => {
    const sdk = authSdkSource();
    const gapi = /gapiScript:\s*'([^']+)'/.exec(sdk)?.[1];
    expect(gapi).toBeDefined();
    expect(csp['script-src']).toContain(new URL(gapi!).origin);
    for (const host of ['identitytoolkit.googleapis.com', 'securetoken.googleapis.com']) {
      expect(sdk).toContain(host);
      expect(csp['connect-src']).toContain(`https://${host}`);
    }
    expect(sdk).toContain("'__/auth/iframe'"); // framed from the authDomain: frame-src above
  });

  it('allow images only from our origin (no https: tracking pixels)', () => {
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });

  it('never name an emulator', () => {
    expect(JSON.stringify(firebaseJson.hosting)).not.toMatch(/127\.0\.0\.1|localhost|9099/);
  });

  it('send the CSP and framing ban with documents only, and nosniff with everything but the Firebase Auth helper pages, precisely', () => {
    // Scripts, styles and images gain nothing from a CSP (it governs documents and workers), and a
    // first visit fetches some 70 of them: their headers alone were 45 KB of it (issue 23).
    const site = rules.find((r) => r.headers.some((h) => h.key === 'Content-Security-Policy'))!;
    const re = new RegExp(site.regex!);
    for (const path of ['/', '/index.html', '/shell.html', '/books/abc', '/dashboard', '/dashboard/orders/x1', '/sw.js']) {
      expect(re.test(path), path).toBe(true);
    }
    for (const path of ['/assets/app.js', '/assets/index.css', '/covers/book-1.svg', '/manifest.webmanifest', '/__/firebase/init.js', '/__/auth/iframe', '/__/auth/handler', '/__/auth/iframe.js']) {
      expect(re.test(path), path).toBe(false);
    }
    const nosniff = rules.find((r) => r.headers.some((h) => h.key === 'X-Content-Type-Options') && r.regex)!;
    const all = new RegExp(nosniff.regex!);
    for (const path of ['/', '/assets/app.js', '/__/firebase/init.js', '/__/authx', '/__/auth']) expect(all.test(path), path).toBe(true);
    for (const path of ['/__/auth/iframe', '/__/auth/handler', '/__/auth/iframe.js']) expect(all.test(path), path).toBe(false);
    for (const regex of [site.regex, nosniff.regex]) expect(regex).not.toMatch(/\(\?[=!<]/); // production matches with RE2: no lookaround
  });

  it('revalidate documents, but leave the pages function’s answers their own Cache-Control', () => {
    const rule = rules.find((r) => r.regex && r.headers.some((h) => h.key === 'Cache-Control' && h.value === 'no-cache'))!;
    const re = new RegExp(rule.regex!);
    for (const path of ['/index.html', '/cart', '/about', '/bookshelf', '/b', '/dashboard/books', '/apiary']) expect(re.test(path), path).toBe(true);
    // The home page is the pages function's too (issue 38): it keeps the catalogue list's edge lifetime.
    for (const path of ['/', '/books', '/books/abc', '/api/books', '/sitemap.xml', '/assets/app.js']) expect(re.test(path), path).toBe(false);
    expect(rules.some((r) => r.source?.startsWith('/books'))).toBe(false);
  });

  it('send a /assets/** file Hosting does not have to `pages` (its own build\'s copy, or a JSON 404), never to the SPA shell', () => {
    const rewrites: { source?: string; function?: unknown; destination?: string }[] = firebaseJson.hosting.rewrites;
    const assets = rewrites.findIndex((r) => r.source === '/assets/**');
    const spa = rewrites.findIndex((r) => r.source === '**' && r.destination === '/shell.html');
    expect(assets).toBeGreaterThanOrEqual(0);
    expect(rewrites[assets]!.function).toEqual({ functionId: 'pages', region: 'us-central1' });
    expect(spa).toBe(rewrites.length - 1);
    expect(assets).toBeLessThan(spa); // first match wins
  });
});

describe('Hosting security headers (emulator)', () => {
  it('pages carry the deployed CSP plus only the Auth emulator, nosniff, a referrer policy and no framing', async () => {
    const deployed = directives(deployedCsp());
    // /books/x is a book page from the `pages` function (404: no such book): same headers.
    for (const [path, status] of [['/', 200], ['/books', 200], ['/books/x', 404], ['/dashboard', 200]] as const) {
      const res = await fetch(`${BASE}${path}`);
      expect(res.status, path).toBe(status);
      const served = directives(res.headers.get('content-security-policy') ?? '');
      expect(served['connect-src']).toEqual([...deployed['connect-src']!, AUTH_EMULATOR, FIRESTORE_EMULATOR]);
      expect(served['frame-src']).toEqual([...deployed['frame-src']!, AUTH_EMULATOR]);
      for (const name of Object.keys(deployed).filter((n) => n !== 'connect-src' && n !== 'frame-src')) {
        expect(served[name], name).toEqual(deployed[name]);
      }
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('Firebase Auth helper pages: the iframe may be framed, the handler may not, neither gets the site CSP', async () => {
    const iframe = await fetch(`${BASE}/__/auth/iframe`);
    expect(iframe.headers.get('x-frame-options')).toBeNull();
    expect(iframe.headers.get('content-security-policy') ?? '').not.toContain('frame-ancestors');
    expect(iframe.headers.get('x-content-type-options')).toBe('nosniff');
    const handler = await fetch(`${BASE}/__/auth/handler`);
    expect(handler.headers.get('x-frame-options')).toBe('DENY');
    expect(handler.headers.get('content-security-policy') ?? '').not.toContain("script-src 'self';");
  });

  it('the home page is revalidated by the browser (kept a minute at the edge) and hashed assets are immutable', async () => {
    const html = await fetch(`${BASE}/`);
    expect(html.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=60');
    const shell = await fetch(`${BASE}/shell.html`);
    expect(shell.headers.get('cache-control')).toBe('no-cache');
    const asset = /\/assets\/[^"]+\.js/.exec(await html.text())![0];
    const res = await fetch(`${BASE}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('a missing /assets/ file (a stale tab after a deploy) is a JSON 404 from `pages` that nothing caches, never index.html', async () => {
    // Hosting applies its header rules by path, over a function's own headers (superstatic sets them
    // at writeHead), so the launcher's config, like the deploy's, narrows the immutable rule to the
    // build's own file names (scripts/lib/asset-headers.ts): the 404 keeps the function's no-store,
    // and a name that comes back (a rollback, a release whose pages goes live first) is served again.
    for (const path of ['/assets/index-0ld0ld0ld.js', '/assets/gone/chunk-x.css']) {
      const res = await fetch(`${BASE}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type') ?? '').toContain('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as { message: string };
      expect(body.message).toBe(`No such file in this release: ${path}`);
    }
  });
});
