import { spawn } from 'node:child_process';
import { CHROMIUM, CHROMIUM_ARGS } from '../playwright.config';
import { ROOT } from '../scripts/lib/env';

export interface LighthouseRun {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

export interface LighthouseResult extends LighthouseRun {
  page: string;
  preset: 'mobile' | 'desktop';
  runs: LighthouseRun[];
}

function once(url: string, preset: 'mobile' | 'desktop'): Promise<LighthouseRun> {
  const args = [
    `${ROOT}node_modules/lighthouse/cli/index.js`, url, '--output=json', '--output-path=stdout', '--quiet',
    '--only-categories=performance,accessibility,best-practices,seo',
    `--chrome-flags=--headless=new ${CHROMIUM_ARGS.join(' ')}`,
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => {
      try {
        const lhr = JSON.parse(out);
        const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100);
        resolve({
          performance: score('performance'),
          accessibility: score('accessibility'),
          bestPractices: score('best-practices'),
          seo: score('seo'),
          lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
          tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
          cls: Number(lhr.audits['cumulative-layout-shift'].numericValue.toFixed(3)),
        });
      } catch {
        reject(new Error(`Lighthouse failed (${code}) on ${url}: ${err.slice(-500)}`));
      }
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Median of `times` runs per page and preset (these shared cores make single runs noisy). */
export async function runLighthouse(base: string, pages: string[], times = 3): Promise<LighthouseResult[]> {
  const results: LighthouseResult[] = [];
  for (const preset of ['mobile', 'desktop'] as const) {
    for (const page of pages) {
      const runs: LighthouseRun[] = [];
      for (let i = 0; i < times; i++) runs.push(await once(`${base}${page}`, preset));
      const pick = (k: keyof LighthouseRun) => median(runs.map((r) => r[k]));
      results.push({
        page, preset, runs,
        performance: pick('performance'), accessibility: pick('accessibility'), bestPractices: pick('bestPractices'),
        seo: pick('seo'), lcpMs: pick('lcpMs'), tbtMs: pick('tbtMs'), cls: Math.max(...runs.map((r) => r.cls)),
      });
    }
  }
  return results;
}
