import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 29: one visual system. index.css switches Tailwind's own palette and type sizes off, so a
// class outside the tokens would silently draw nothing; this finds such a class in the source
// before a page loses a colour. web/e2e/visual.spec.ts checks the drawn pages.

const SRC = fileURLToPath(new URL('.', import.meta.url));
const css = readFileSync(join(SRC, 'index.css'), 'utf8');
const COLOURS = new Set([...css.matchAll(/--color-([\w-]+):\s*#/g)].map((m) => m[1]!));
const SIZES = new Set([...css.matchAll(/--text-(\w+):\s*[\d.]+rem/g)].map((m) => m[1]!));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(tsx?|css)$/.test(entry) && !/\.test\.tsx?$/.test(entry) && entry !== 'index.css' ? [path] : [];
  });
}

// Utilities that take a colour: bg-*, text-*, border-*, ring-*, outline-*, divide-*, fill-*, stroke-*,
// accent-*, decoration-*, placeholder:text-*, from/via/to-*, with any variant prefix and /opacity.
const COLOUR_UTILITY = /(?<![\w-])(?:[a-z-]+:)*(bg|text|border|ring|outline|divide|fill|stroke|accent|decoration|from|via|to|shadow)-([a-z]+(?:-[a-z]+)*?)(?:-(\d{2,3}))?(?:\/\d+)?(?![\w-])/g;
// Words after those prefixes that are not colours (sizes, styles, positions, keywords).
const NOT_A_COLOUR = new Set([
  'xs', 'sm', 'base', 'lg', 'xl', 'left', 'right', 'center', 'justify', 'start', 'end', 'clip', 'ellipsis', 'wrap', 'nowrap', 'balance', 'pretty',
  'transparent', 'current', 'inherit', 'none', 'inset', 'offset', 'solid', 'dashed', 'dotted', 'double', 'hidden', 'collapse', 'separate', 'x', 'y',
  't', 'b', 'l', 'r', 's', 'e', 'cover', 'contain', 'auto', 'fixed', 'local', 'scroll', 'no-repeat', 'repeat', 'top', 'bottom', 'gradient-to-r',
  'md', 'full', 'opacity', 'white-10', 'clip-text', 'origin', 'pointer',
]);

describe('design tokens (issue 29)', () => {
  const files = sources(SRC);

  it('every colour class names a token: primary, secondary, accent, danger (and their soft tints), white, black, grays', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(COLOUR_UTILITY)) {
        const [whole, , word, shade] = m;
        if (NOT_A_COLOUR.has(word!) || /^\d/.test(word!) || word!.startsWith('[')) continue;
        const colour = shade ? `${word}-${shade}` : word!;
        // text-2xl and friends are sizes, checked below; anything else must be a token.
        if (m[1] === 'text' && SIZES.has(word!)) continue;
        if (!COLOURS.has(colour) && /^(slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose|primary|secondary|accent|danger|white|black)/.test(colour)) {
          wrong.push(`${relative(SRC, file)}: ${whole}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no arbitrary colours and no text sizes outside the type scale', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?<![\w-])(?:bg|text|border|ring|fill|stroke)-\[#[0-9a-fA-F]+\]/g)) wrong.push(`${relative(SRC, file)}: ${m[0]}`);
      for (const m of text.matchAll(/(?<![\w-])text-(\d?xl|xs|sm|base|lg|\[\d+px\])(?![\w-])/g)) {
        if (!SIZES.has(m[1]!)) wrong.push(`${relative(SRC, file)}: ${m[0]}`);
      }
    }
    expect(wrong).toEqual([]);
    expect([...SIZES]).toEqual(['xs', 'sm', 'base', 'lg', 'xl', '2xl', '3xl', '4xl']);
  });

  it('one casing rule: buttons and headings are written in their case, never transformed by CSS', () => {
    const wrong = files.filter((file) => /(?<![\w-])(uppercase|lowercase)(?![\w-])/.test(readFileSync(file, 'utf8'))).map((f) => relative(SRC, f));
    expect(wrong).toEqual([]);
  });
});
