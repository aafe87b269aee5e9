import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { assetNames } from './asset-headers';
import { PROD_OUT_DIR } from './deploy';
import { EMULATOR_ENV, HOST, ROOT } from './env';
import { deployedHosting } from './hosting-server';
import { freePort } from './ports';
import type { SmokeResult } from './smoke';
import { startServing, type WatchedProcess } from './watched-process';

// A redeploy, rehearsed with two releases (decision 033). `npm run deploy` releases the functions
// before Hosting (decision 017), so for a minute or two the new `pages` renders pages that name the
// new build's /assets/ files while Hosting still serves the old release. Here:
//   release A, live: the suite's web build (web/dist) and the function bundle built from it (functions/lib);
//   release B: the deploy's production build (web/dist-prod) and its staged upload (artifacts/rehearsal/functions).
// Hosting is the Hosting emulator's own server (superstatic, with firebase-tools' function proxy)
// on each release's public folder and the config the deploy writes for it; each `pages` is its own
// functions-framework process, as on Cloud Run. Three states, in the deploy's order: A live; B's
// functions released, A's Hosting still live; B live. In each, every file a served page can ask
// for must answer 200 with its own bytes, and a name no release has must answer a 404 nothing keeps.

const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Release {
  name: string;
  /** The Hosting upload (the public folder). */
  web: string;
  /** The function source as deployed (functions-framework --source). */
  functions: string;
}

/** Hosting for one release's public folder (the deploy's config for it); only `pages` has a process here. */
const hosting = (release: Release, pagesUrl: string) => deployedHosting(release.web, (functionId) => (functionId === 'pages' ? pagesUrl : `http://${HOST}:9`));

/** One release's `pages` under functions-framework, as Cloud Run boots it (no secrets: it declares none). */
async function bootPages(release: Release, logDir: string): Promise<{ url: string; process: WatchedProcess }> {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const framework = join(ROOT, 'node_modules', '@google-cloud', 'functions-framework', 'build', 'src', 'main.js');
  const { FUNCTIONS_EMULATOR: _e, K_SERVICE: _k, FIREBASE_CONFIG: _c, ADMIN_JWT_SECRET: _s, ...env } = process.env;
  const proc = await startServing(`pages of release ${release.name}`, process.execPath,
    [framework, '--target=pages', '--signature-type=http', `--source=${release.functions}`, `--port=${port}`],
    { env: { ...env, ...EMULATOR_ENV, K_SERVICE: 'pages', FUNCTION_TARGET: 'pages', NODE_ENV: 'production', METADATA_SERVER_DETECTION: 'none' }, logFile: join(logDir, `pages-${release.name}.log`) },
    async () => (await fetch(`${url}/no-such-page`)).status === 404,
    60_000);
  return { url, process: proc };
}

const release = (web: string): string => (JSON.parse(readFileSync(join(web, 'release.json'), 'utf8')) as { release: string }).release;
const sha = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The /assets/ files a page's HTML names: stylesheets and any src/href, and the start script's
 * entry and preloads (data-entry, data-preload: space-separated; decision 029).
 */
export function namedAssets(html: string): string[] {
  const urls = [...html.matchAll(/(?:src|href|data-entry|data-preload)="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/));
  return [...new Set(urls.filter((url) => url.startsWith('/assets/')).map((url) => url.slice('/assets/'.length).replace(/[?#].*$/, '')))];
}

interface AssetAnswer {
  name: string;
  status: number;
  cacheControl: string | null;
  same: boolean;
}

async function fetchAssets(hostingUrl: string, names: string[], build: string): Promise<AssetAnswer[]> {
  const answers: AssetAnswer[] = [];
  for (const name of names) {
    const res = await fetch(`${hostingUrl}/assets/${name}`);
    const body = new Uint8Array(await res.arrayBuffer());
    const file = join(build, 'assets', name);
    answers.push({ name, status: res.status, cacheControl: res.headers.get('cache-control'), same: existsSync(file) && sha(body) === sha(readFileSync(file)) });
  }
  return answers;
}

const allServed = (answers: AssetAnswer[]) => answers.every((a) => a.status === 200 && a.same && a.cacheControl === IMMUTABLE);
const firstBad = (answers: AssetAnswer[]) => answers.find((a) => !(a.status === 200 && a.same && a.cacheControl === IMMUTABLE));
const describeBad = (a: AssetAnswer | undefined) => (a ? `; /assets/${a.name} -> ${a.status}, ${a.same ? 'its bytes' : 'other bytes'}, Cache-Control: ${a.cacheControl}` : '');

/**
 * Rehearses a redeploy from release A (the suite's build) to release B (the staged deploy source):
 * needs the suite's emulators (seeded) and buildDeploySource's output.
 */
export async function rehearseTwoReleases(bookId: string, stagedFunctions: string, logDir: string): Promise<SmokeResult[]> {
  const a: Release = { name: 'A', web: join(ROOT, 'web', 'dist'), functions: join(ROOT, 'functions') };
  const b: Release = { name: 'B', web: join(ROOT, 'web', PROD_OUT_DIR), functions: stagedFunctions };
  const results: SmokeResult[] = [];
  const record = (name: string, ok: boolean, detail: string) => results.push({ name, status: ok ? 'pass' : 'fail', detail });
  const [releaseA, releaseB] = [release(a.web), release(b.web)];
  const [namesA, namesB] = [assetNames(a.web), assetNames(b.web)];
  const onlyB = namesB.filter((n) => !namesA.includes(n));
  record('two releases to deploy', releaseA !== releaseB && onlyB.length > 0,
    `A ${releaseA} (web/dist, ${namesA.length} assets), B ${releaseB} (web/${PROD_OUT_DIR}, ${namesB.length} assets, ${onlyB.length} of them not in A)`);

  const started: WatchedProcess[] = [];
  const servers: Server[] = [];
  try {
    const [pagesA, pagesB] = await Promise.all([bootPages(a, logDir), bootPages(b, logDir)]);
    started.push(pagesA.process, pagesB.process);
    const states: { label: string; web: Release; pages: { url: string }; serving: string; build: Release }[] = [
      { label: 'A live', web: a, pages: pagesA, serving: releaseA, build: a },
      { label: "B's functions released, A's Hosting still live", web: a, pages: pagesB, serving: releaseB, build: b },
      { label: 'B live', web: b, pages: pagesB, serving: releaseB, build: b },
    ];
    for (const state of states) {
      const site = await hosting(state.web, state.pages.url);
      servers.push(site.server);
      const page = await fetch(`${site.url}/books/${bookId}`);
      const html = await page.text();
      const named = namedAssets(html);
      const answers = await fetchAssets(site.url, named, state.build.web);
      const fromFunction = named.filter((n) => !existsSync(join(state.web.web, 'assets', n))).length;
      record(`${state.label}: a book page's assets all answer`, page.status === 200 && page.headers.get('x-release') === state.serving && named.length > 0 && allServed(answers),
        `GET /books/${bookId} -> ${page.status}, X-Release ${page.headers.get('x-release')}; ${named.length} /assets/ files named, ${answers.filter((x) => x.status === 200 && x.same).length} answered 200 with their bytes and immutable caching (${fromFunction} by \`pages\`, the rest by Hosting)${describeBad(firstBad(answers))}`);
      // Lazy chunks too: every file of the build whose pages are being served.
      const every = await fetchAssets(site.url, assetNames(state.build.web), state.build.web);
      record(`${state.label}: every file of release ${state.build.name}'s build answers`, allServed(every),
        `${every.filter((x) => x.status === 200 && x.same).length} of ${every.length} /assets/ files 200 with their bytes${describeBad(firstBad(every))}`);
      const missing = await fetch(`${site.url}/assets/rehearsal-never-built-${Date.now()}.js`);
      record(`${state.label}: a name no release has is a 404 nothing keeps`, missing.status === 404 && missing.headers.get('cache-control') === 'no-store' && !/text\/html/.test(missing.headers.get('content-type') ?? ''),
        `GET /assets/rehearsal-never-built-*.js -> ${missing.status}, ${missing.headers.get('content-type')}, Cache-Control: ${missing.headers.get('cache-control')}`);
    }
    // After B is live, a tab still on A asks for A's chunks: a 404 no one keeps, so a rollback to A serves them again.
    const gone = namesA.filter((n) => !namesB.includes(n));
    if (gone.length > 0) {
      const site = await hosting(b, pagesB.url);
      servers.push(site.server);
      const res = await fetch(`${site.url}/assets/${gone[0]}`);
      record("B live: a stale tab's chunk of A is a 404 nothing keeps", res.status === 404 && res.headers.get('cache-control') === 'no-store',
        `GET /assets/${gone[0]} (A only) -> ${res.status}, Cache-Control: ${res.headers.get('cache-control')}`);
    }
  } catch (error) {
    record('two releases', false, (error as Error).message);
  } finally {
    servers.forEach((s) => s.close());
    await Promise.all(started.map((p) => p.stop()));
  }
  return results;
}
