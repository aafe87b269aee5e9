import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// Deterministic size budgets, read from the production build (npm test builds first): what a
// first visit to each storefront route downloads before any interaction, and what it never does.

const DIST = new URL('../dist/', import.meta.url);
const manifestPath = new URL('.vite/manifest.json', DIST);

interface Chunk { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; src?: string; css?: string[] }
const manifest: Record<string, Chunk> = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : {};

export const BUDGET_HOME_JS_GZIP = 150 * 1024;

/** A chunk and everything it imports statically, as manifest keys. */
function closure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const dep of manifest[key]!.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

const gzipBytes = (keys: Set<string>) =>
  [...keys].reduce((sum, key) => sum + gzipSync(readFileSync(new URL(manifest[key]!.file, DIST)), { level: 9 }).length, 0);

const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
const route = (name: string) => Object.keys(manifest).find((k) => k.endsWith(`app/routes/${name}.tsx`))!;
const storefrontRoutes = ['home', 'books', 'book-detail', 'cart', 'checkout', 'orders', 'login', 'register', 'search', 'about'];

describe.skipIf(!existsSync(manifestPath))('bundle budgets (web/dist)', () => {
  it(`a first visit to / downloads at most ${BUDGET_HOME_JS_GZIP / 1024} KB of JavaScript (gzip)`, () => {
    const bytes = gzipBytes(closure([entry, route('home')]));
    console.log(`home first-load JS: ${(bytes / 1024).toFixed(1)} KB gzip`);
    expect(bytes).toBeLessThanOrEqual(BUDGET_HOME_JS_GZIP);
  });

  it('no storefront route loads dashboard code, charts or forms before it is asked for', () => {
    for (const name of storefrontRoutes) {
      const files = [...closure([entry, route(name)])];
      expect(files.filter((k) => k.includes('features/admin/')), name).toEqual([]);
    }
  });

  it('the home page does not load the Firebase SDK, reactfire, sweetalert2 or Swiper up front', () => {
    const files = [...closure([entry, route('home')])].map((k) => `${k} ${manifest[k]!.file}`).join('\n');
    for (const heavy of ['firebase', 'reactfire', 'sweetalert2', 'swiper', 'zod']) {
      expect(files, heavy).not.toMatch(new RegExp(`node_modules/(@?${heavy})`));
    }
    const code = [...closure([entry, route('home')])].map((k) => readFileSync(new URL(manifest[k]!.file, DIST), 'utf8')).join('');
    expect(code).not.toContain('identitytoolkit');
    expect(code).not.toContain('ZodError');
    expect(code).not.toContain('swal2-container'); // sweetalert2
    expect(code).not.toContain('swiper-initialized'); // Swiper core
  });
});
