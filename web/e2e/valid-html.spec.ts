import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogueBooks } from './helpers';

// Every server-rendered and prerendered page, as Hosting serves it, checked by the W3C Nu Html
// Checker (vnu-jar, on the machine's Java): no errors.

const VNU = join(process.cwd(), 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');

interface VnuMessage { type: string; url: string; lastLine?: number; message: string; extract?: string }

test('the served pages are valid HTML (Nu Html Checker: 0 errors)', async ({ request }) => {
  const [book] = await catalogueBooks(request);
  const paths = ['/', `/books/${book!._id}`, '/books', '/books?category=fiction&sort=price-asc', '/books/no-such-book', '/cart', '/about', '/login', '/orders'];
  const dir = mkdtempSync(join(tmpdir(), 'vnu-'));
  try {
    const files = await Promise.all(
      paths.map(async (path, i) => {
        const file = join(dir, `page-${i}.html`);
        writeFileSync(file, await (await request.get(path)).text());
        return file;
      }),
    );
    const run = spawnSync('java', ['-jar', VNU, '--errors-only', '--format', 'json', ...files], { encoding: 'utf8' });
    expect(run.error).toBeUndefined();
    const { messages } = JSON.parse(run.stderr) as { messages: VnuMessage[] };
    const named = messages.map((m) => `${paths[files.indexOf(m.url.replace(/^file:/, ''))] ?? m.url}:${m.lastLine ?? '?'} ${m.message} ${m.extract ?? ''}`);
    expect(named).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
