import { execFileSync } from 'node:child_process';
import { CHROMIUM, CHROMIUM_ARGS } from '../playwright.config';
import { ROOT } from '../scripts/lib/env';
import { run } from '../scripts/lib/watched-process';

export interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs?: number;
  /** The LCP element as Lighthouse names it (its HTML, cut short). */
  lcpElement?: string;
  /** Why the run gave no figures (a page that paints nothing without JavaScript: NO_FCP). */
  error?: string;
  /** The browser's version as Lighthouse saw it (absent in older results). */
  chromium?: string;
}

export interface LighthouseResult extends LighthouseRun {
  page: string;
  preset: 'mobile' | 'desktop';
  /** false: the floor, the same page with JavaScript disabled (its HTML and CSS alone). */
  javascript?: boolean;
  /** Lighthouse's simulated CPU slowdown (its mobile default, 4, when absent). */
  cpuSlowdown?: number;
  runs: LighthouseRun[];
}

/** Runs a page (the issue's 5); BOOKSTORE_LIGHTHOUSE_RUNS lowers it for a quick look while working. */
export const MOBILE_RUNS = Number(process.env.BOOKSTORE_LIGHTHOUSE_RUNS) || 5;

/**
 * JavaScript off for the floor runs: every script request is blocked, so the page is its HTML and CSS
 * alone. The one inline script, the app's start (decision 029), still runs after the load event and
 * asks for the entry, which fails; in some runs those failed requests come before the observed paint
 * and Lighthouse's simulation counts them into the floor's LCP (905 or 1,370 ms for the same page).
 * Its JSON data blocks do not run. Chromium's own switch,
 * `--blink-settings=scriptEnabled=false`, stops Lighthouse itself: its Debugger.enable call fails
 * with 'Script execution is prohibited'.
 */
export const NO_JAVASCRIPT = '--blocked-url-patterns=*.js';

async function once(url: string, javascript: boolean, cpuSlowdown: number): Promise<LighthouseRun> {
  const flags = ['--headless=new', ...CHROMIUM_ARGS];
  const args = [
    `${ROOT}node_modules/lighthouse/cli/index.js`, url, '--output=json', '--output-path=stdout', '--quiet',
    '--only-categories=performance,accessibility,best-practices,seo',
    `--chrome-flags=${flags.join(' ')}`,
    ...(javascript ? [] : [NO_JAVASCRIPT]),
    ...(cpuSlowdown === DEFAULT_CPU_SLOWDOWN ? [] : [`--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`]),
  ];
  const { code, stdout, stderr } = await run(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM }, capture: true });
  let lhr;
  try {
    lhr = JSON.parse(stdout);
  } catch {
    throw new Error(`Lighthouse failed (${code}) on ${url}: ${stderr.slice(-500)}`);
  }
  const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100);
  const value = (audit: string) => lhr.audits[audit]?.numericValue as number | undefined;
  const lcp = value('largest-contentful-paint');
  const chromium = chromiumVersion() ?? /Chrome\/([\d.]+)/.exec(String(lhr.environment?.hostUserAgent ?? ''))?.[1];
  const snippet: string | undefined = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: lcp === undefined ? Number.NaN : Math.round(lcp),
    tbtMs: Math.round(value('total-blocking-time') ?? Number.NaN),
    cls: Number((value('cumulative-layout-shift') ?? Number.NaN).toFixed(3)),
    fcpMs: Math.round(value('first-contentful-paint') ?? Number.NaN),
    ...(snippet ? { lcpElement: snippet.slice(0, 120) } : {}),
    ...(chromium ? { chromium } : {}),
    ...(lcp === undefined ? { error: String(lhr.runtimeError?.code ?? lhr.audits['largest-contentful-paint']?.errorMessage ?? 'no LCP') } : {}),
  };
}

let version: string | null | undefined;
/** The browser's full version (its user agent says only 156.0.0.0): `chromium --version`, once. */
function chromiumVersion(): string | undefined {
  if (version === undefined) {
    try {
      version = /(\d+\.\d+\.\d+\.\d+)/.exec(execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))?.[1] ?? null;
    } catch {
      version = null;
    }
  }
  return version ?? undefined;
}

/** The middle value of the runs that gave one (NaN when none did). */
export const median = (values: number[]) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Number.NaN;
};

/** Lighthouse's mobile preset slows the CPU 4x; issue 38 checks 8x too (a slower phone). */
export const DEFAULT_CPU_SLOWDOWN = 4;

export interface LighthouseOptions {
  times: number;
  /** Lighthouse's simulated CPU slowdown (default 4). */
  cpuSlowdown?: number;
  /** false: the floor runs (JavaScript disabled). */
  javascript?: boolean;
  log?: (line: string) => void;
}

/** Median of `times` mobile runs per page (these shared cores make single runs noisy); CLS is the worst run. */
export async function runLighthouse(base: string, pages: string[], options: LighthouseOptions): Promise<LighthouseResult[]> {
  const { times, javascript = true, log, cpuSlowdown = DEFAULT_CPU_SLOWDOWN } = options;
  const preset = 'mobile';
  const results: LighthouseResult[] = [];
  for (const page of pages) {
    const runs: LighthouseRun[] = [];
    for (let i = 0; i < times; i++) {
      // A run Lighthouse itself cannot finish (an interstitial on a busy machine) is tried once more, then kept as an error.
      const one = await once(`${base}${page}`, javascript, cpuSlowdown)
        .catch(() => once(`${base}${page}`, javascript, cpuSlowdown))
        .catch((error: unknown): LighthouseRun => ({ performance: Number.NaN, accessibility: Number.NaN, bestPractices: Number.NaN, seo: Number.NaN, lcpMs: Number.NaN, tbtMs: Number.NaN, cls: Number.NaN, error: String(error instanceof Error ? error.message : error).slice(0, 200) }));
      log?.(`  ${preset}${javascript ? '' : ' (no JS)'}${cpuSlowdown === DEFAULT_CPU_SLOWDOWN ? '' : ` ${cpuSlowdown}x CPU`} ${page} run ${i + 1}: perf ${one.performance}, LCP ${one.lcpMs} ms, TBT ${one.tbtMs} ms, CLS ${one.cls}${one.error ? ` (${one.error})` : ''}`);
      runs.push(one);
    }
    const pick = (k: 'performance' | 'accessibility' | 'bestPractices' | 'seo' | 'lcpMs' | 'tbtMs' | 'fcpMs') => median(runs.map((r) => r[k] ?? Number.NaN));
    const errors = runs.filter((r) => r.error);
    results.push({
      page, preset, javascript, runs, ...(cpuSlowdown === DEFAULT_CPU_SLOWDOWN ? {} : { cpuSlowdown }),
      performance: pick('performance'), accessibility: pick('accessibility'), bestPractices: pick('bestPractices'),
      seo: pick('seo'), lcpMs: pick('lcpMs'), tbtMs: pick('tbtMs'), fcpMs: pick('fcpMs'),
      cls: Math.max(...runs.map((r) => (Number.isFinite(r.cls) ? r.cls : 0))),
      ...(errors.length === runs.length ? { error: errors[0]!.error } : {}),
    });
  }
  return results;
}

/**
 * The floor's LCP: its fastest run, the best this page can paint without JavaScript (some floor runs
 * count the start script's failed requests into the paint: NO_JAVASCRIPT above).
 */
export function floorLcp(floor: LighthouseResult | undefined): number {
  const lcps = (floor?.runs ?? []).map((r) => r.lcpMs).filter((v) => Number.isFinite(v) && v > 0);
  return lcps.length ? Math.min(...lcps) : Number.NaN;
}

/** The median LCP over the floor's LCP (the same page, same throttling, JavaScript disabled). */
export function floorRatio(withJs: LighthouseResult, floor: LighthouseResult | undefined): number {
  const best = floorLcp(floor);
  if (!Number.isFinite(best) || !Number.isFinite(withJs.lcpMs)) return Number.NaN;
  return withJs.lcpMs / best;
}

export interface OriginalApp {
  /** The original app's dist/ folder (BOOKSTORE_ORIGINAL_DIST). */
  dist?: string;
  lighthouse?: LighthouseResult[];
  floors?: LighthouseResult[];
  /** Why it was not measured. */
  skipped?: string;
}

export const ORIGINAL_SKIPPED = 'original app: skipped (BOOKSTORE_ORIGINAL_DIST not set)';
