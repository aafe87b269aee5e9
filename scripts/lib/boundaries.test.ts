import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './env';

// The boundary rules in .dependency-cruiser.cjs, run by the real CLI over small trees written here:
// each rule must refuse its violation, and a tree that keeps the layers must pass.

const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
let dir = '';

function tree(files: Record<string, string>): string {
  dir = mkdtempSync(join(tmpdir(), 'boundaries-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function cruise(cwd: string, roots = ['web/src']): { code: number | null; output: string } {
  const out = spawnSync(process.execPath, [CLI, '--config', CONFIG, '--output-type', 'err', ...roots], { cwd, encoding: 'utf8' });
  return { code: out.status, output: `${out.stdout}${out.stderr}` };
}

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

// Each case starts the CLI (about 2 s alone, several times that on a loaded 2-core machine).
describe('module boundaries (dependency-cruiser)', { timeout: 60_000 }, () => {
  it('passes a tree that keeps contract -> lib -> features -> app', () => {
    const cwd = tree({
      'web/src/lib/money.ts': 'export const cents = 1;\n',
      'web/src/features/cart/cart.ts': "import { cents } from '../../lib/money';\nexport const cart = cents;\n",
      'web/src/app/app.ts': "import { cart } from '../features/cart/cart';\nexport const app = cart;\n",
    });
    expect(cruise(cwd)).toMatchObject({ code: 0 });
  });

  it('refuses an import from one feature into another', () => {
    const cwd = tree({
      'web/src/features/checkout/total.ts': 'export const total = 1;\n',
      'web/src/features/cart/cart.ts': "import { total } from '../checkout/total';\nexport const cart = total;\n",
    });
    const { code, output } = cruise(cwd);
    expect(code).not.toBe(0);
    expect(output).toContain('feature-cart-closed: web/src/features/cart/cart.ts → web/src/features/checkout/total.ts');
  });

  it('refuses lib importing a feature, and a cycle', () => {
    const cwd = tree({
      'web/src/features/cart/cart.ts': 'export const cart = 1;\n',
      'web/src/lib/store.ts': "import { cart } from '../features/cart/cart';\nexport const store = cart;\n",
      'web/src/lib/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'web/src/lib/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    const { code, output } = cruise(cwd);
    expect(code).not.toBe(0);
    expect(output).toContain('lib-below-features: web/src/lib/store.ts → web/src/features/cart/cart.ts');
    expect(output).toMatch(/no-cycles: web\/src\/lib\/(a|b)\.ts/);
  });

  it('lets the function import the site only through its server render (web/src/server/)', () => {
    const cwd = tree({
      'web/src/app/page.ts': 'export const page = 1;\n',
      'web/src/server/render.ts': "import { page } from '../app/page';\nexport const render = () => page;\n",
      'functions/src/pages/ok.ts': "import { render } from '../../../web/src/server/render';\nexport const ok = render;\n",
      'functions/src/pages/bad.ts': "import { page } from '../../../web/src/app/page';\nexport const bad = page;\n",
    });
    const { code, output } = cruise(cwd, ['functions/src', 'web/src']);
    expect(code).not.toBe(0);
    expect(output).toContain('function-without-tooling: functions/src/pages/bad.ts → web/src/app/page.ts');
    expect(output).not.toContain('functions/src/pages/ok.ts →');
  }, 30_000); // the CLI takes a few seconds, more on a loaded machine
});
